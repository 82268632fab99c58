import Foundation
import HTTPTypes
import JewzHTTPCore

/// A response from swift-http-types' response.
extension JewzHTTPCore.HTTPResponse {
    /// The response `response` of swift-http-types describes: status and header fields, in
    /// order, with `body` as the body and `url` as where it came from.
    public init(_ response: HTTPTypes.HTTPResponse, body: HTTPResponseBody = HTTPResponseBody(Data()), url: URL? = nil) {
        self.init(statusCode: response.status.code, headers: HTTPHeaderFields(response.headerFields), body: body, url: url)
    }
}

/// swift-http-types' response from Jewzruxin's response.
extension HTTPTypes.HTTPResponse {
    /// `response`'s status and header fields as swift-http-types' value; the reason phrase is
    /// the standard one of the status. The body stays with `response`.
    ///
    /// - Throws: ``HTTPTypesConversionError`` for a status outside 0...999 or a header
    ///   HTTPTypes refuses.
    public init(_ response: JewzHTTPCore.HTTPResponse) throws(HTTPTypesConversionError) {
        try self.init(JewzHTTPCore.HTTPResponse.Head(response))
    }

    /// The status and header fields of a streamed or downloaded response's `head`, as
    /// swift-http-types' value; the reason phrase is the standard one of the status.
    ///
    /// - Throws: ``HTTPTypesConversionError`` for a status outside 0...999 or a header
    ///   HTTPTypes refuses.
    public init(_ head: JewzHTTPCore.HTTPResponse.Head) throws(HTTPTypesConversionError) {
        guard (0...999).contains(head.statusCode) else {
            throw HTTPTypesConversionError(.invalidStatus, String(head.statusCode))
        }
        let status = Status(code: head.statusCode, reasonPhrase: JewzHTTPCore.HTTPResponse.reasonPhrase(for: head.statusCode))
        self.init(status: status, headerFields: try HTTPFields(head.headers))
    }
}
