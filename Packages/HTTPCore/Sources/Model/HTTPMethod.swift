/// An HTTP request method such as `GET` or `POST`.
///
/// Any token is allowed (`HTTPMethod("PROPFIND")`); the common ones are constants.
public struct HTTPMethod: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let options: HTTPMethod = "OPTIONS"
    public static let trace: HTTPMethod = "TRACE"
    public static let connect: HTTPMethod = "CONNECT"

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110 §9.2.2).
    package var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options, .trace: true
        default: false
        }
    }

    public var description: String { rawValue }
}
