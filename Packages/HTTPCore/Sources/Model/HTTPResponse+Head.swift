import Foundation

extension HTTPResponse {
    /// A response without its body: what ``HTTPSession/stream(_:options:)`` and
    /// ``HTTPSession/download(_:to:resumingFrom:options:didWriteData:)`` return beside the body's
    /// stream or file, where ``HTTPSession/send(_:options:)`` returns a whole ``HTTPResponse``.
    public struct Head: Sendable {
        /// The status code, from 100 to 999.
        public var statusCode: Int
        /// The header fields, as the server sent them; a download's include the trailers that
        /// arrived after its body.
        public var headers: HTTPHeaderFields
        /// The URL the response came from, after redirects.
        public var url: URL?
        /// The protocol version the response came over; `nil` when the transport does not say.
        public var version: HTTPVersion?
        /// Where the response came from: the network, unless the session has a cache.
        public var source: Source

        /// The head of `response`.
        package init(_ response: borrowing HTTPResponse) {
            statusCode = response.statusCode
            headers = response.headers
            url = response.url
            version = response.version
            source = response.source
        }

        /// The parsed `Content-Type`, if present and well-formed.
        public var contentType: MediaType? {
            headers["Content-Type"].flatMap { MediaType($0) }
        }
    }
}
