/// An HTTP request method such as `GET` or `POST`.
///
/// Any token is allowed (`HTTPMethod("PROPFIND")`); the common ones are constants.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The method's token, as it goes on the wire (case matters).
    public let rawValue: String

    /// The method spelled `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The method spelled `value`: `let method: HTTPMethod = "PROPFIND"`.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// `GET`: transfer a representation of the resource (RFC 9110 §9.3.1).
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: as `GET`, without the body.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`: have the resource process the body.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace the resource with the body.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`: change part of the resource (RFC 5789).
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`: remove the resource.
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`: ask what the resource or server allows.
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`: have the server echo the request back.
    public static let trace: HTTPMethod = "TRACE"
    /// `CONNECT`: open a tunnel to the host (what a proxy is asked).
    public static let connect: HTTPMethod = "CONNECT"

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2).
    package var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options, .trace: true
        default: false
        }
    }

    /// The method's token.
    public var description: String { rawValue }
}
