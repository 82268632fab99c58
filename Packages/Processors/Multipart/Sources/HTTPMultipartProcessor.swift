import Foundation
import JewzHTTPCore

/// Sends and reads multipart bodies.
///
/// Request: `request.object` as ``MultipartFormData`` becomes the (streamed) body with its
/// Content-Type. Response: a `multipart/*` body becomes a ``MultipartBody`` in
/// `response.object`.
public struct HTTPMultipartProcessor: HTTPProcessor {
    /// The media types the processor reads, for registering it in one line.
    public static let mediaTypePatterns = ["multipart/*"]

    /// How much of a response's body the parser accepts.
    public var limits: MultipartLimits

    /// A processor that parses responses within `limits`.
    public init(limits: MultipartLimits = .init()) {
        self.limits = limits
    }

    /// Writes a ``MultipartFormData`` request object as the body, its files streamed.
    ///
    /// - Throws: `HTTPError.unsupportedRequestObject` for another kind of object.
    public func prepare(_ request: inout HTTPRequest) throws {
        guard let object = request.object else { return }
        guard let form = object as? MultipartFormData else {
            throw HTTPError.unsupportedRequestObject(
                type: String(describing: type(of: object)), processor: "HTTPMultipartProcessor")
        }
        request.setBody(form)
    }

    /// Parses a `multipart/*` body into a ``MultipartBody``, the response's object.
    ///
    /// - Throws: ``MultipartError``.
    public func process(_ response: inout HTTPResponse) throws {
        let contentType = response.headers["Content-Type"] ?? ""
        let boundary = try MultipartParser.boundary(in: contentType)
        let parts = try MultipartParser.parts(of: response.data, boundary: boundary, limits: limits)
        response.object = MultipartBody(subtype: MediaType(contentType)?.subtype ?? "mixed", parts: parts)
    }
}

/// A parsed multipart body: its subtype (`mixed`, `form-data`, `byteranges`…) and parts.
public struct MultipartBody: Sendable, Equatable {
    /// The subtype: `mixed`, `form-data`, `byteranges`…
    public var subtype: String
    /// The parts, in order.
    public var parts: [MultipartPart]

    /// A body of `parts`, of `subtype`.
    public init(subtype: String, parts: [MultipartPart]) {
        self.subtype = subtype
        self.parts = parts
    }

    /// The first part named `name` (form-data).
    public subscript(name: String) -> MultipartPart? {
        parts.first { $0.name == name }
    }
}

/// Reading a response's multipart body.
extension HTTPResponse {
    /// The parsed multipart body, when a multipart processor produced one.
    public var multipart: MultipartBody? { object as? MultipartBody }
}
