import Foundation
import JewzHTTPCore

/// One part of a parsed multipart body.
public struct MultipartPart: Sendable, Equatable {
    /// The part's header fields.
    public var headers: HTTPHeaderFields
    /// The part's body.
    public var body: Data

    /// A part of `headers` and `body`.
    public init(headers: HTTPHeaderFields, body: Data) {
        self.headers = headers
        self.body = body
    }

    /// The part's `Content-Disposition`, parsed.
    public var disposition: ContentDisposition? { headers["Content-Disposition"].flatMap(ContentDisposition.init) }

    /// The form field's name (`Content-Disposition: form-data; name=…`).
    public var name: String? { disposition?["name"] }

    /// The file name: RFC 5987's `filename*` when present, else `filename` (with the
    /// `%22`, `%0D`, `%0A` that browsers write decoded). As the sender wrote it: use
    /// `disposition?.safeFilename` to name a file.
    public var filename: String? { disposition?.filename }

    /// The part's Content-Type, parsed.
    public var contentType: MediaType? { headers["Content-Type"].flatMap { MediaType($0) } }

    /// The body as text, by the part's charset or else UTF-8.
    public var text: String? {
        HTTPResponse(statusCode: 200, headers: headers, body: HTTPResponseBody(body)).text
    }
}
