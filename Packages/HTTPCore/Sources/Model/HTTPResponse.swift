import Foundation

/// What came back: status, headers, the ``body``, and the ``object`` that the response
/// processors made of it.
public struct HTTPResponse: Sendable {
    /// The status code, from 100 to 999.
    public var statusCode: Int
    /// The header fields, as the server sent them (trailers added at the end of a stream).
    public var headers: HTTPHeaderFields
    /// The body, after content decoding: whole bytes in what ``HTTPSession/send(_:options:)``
    /// returns. Inside the request path it may be a stream still arriving (for a streamed or
    /// downloaded call, or from a cache's file): a middleware may read it, wrap it
    /// (``HTTPResponseBody/map(_:)``) or replace it, whatever its kind, and the call puts what
    /// it gives where the body goes.
    public var body: HTTPResponseBody
    /// The model the response processors made from the body (parsed JSON, form fields…).
    public var object: (any Sendable)?
    /// The URL the response came from, after redirects.
    public var url: URL?
    /// The protocol version the response came over; `nil` when the transport does not say
    /// (`URLSessionTransport` on Linux).
    public var version: HTTPVersion?
    /// Where the response came from: the network, unless the session has a cache.
    public var source: Source = .network
    /// An encoding for ``text`` that overrides what the headers and the bytes suggest.
    public var textReadEncoding: String.Encoding?

    /// The body's bytes (``HTTPResponseBody/data``): all of it in what
    /// ``HTTPSession/send(_:options:)`` returns. A middleware that meets a body still arriving
    /// finds it empty here and reads ``body`` instead. Setting it makes the body those bytes.
    public var data: Data {
        get { body.data ?? Data() }
        set { body = HTTPResponseBody(newValue) }
    }

    /// Calls `action` when the exchange this response ends is over: at once for a body that
    /// is whole, at the end of the stream (with what ended it) for one still arriving. How a
    /// stage holds what it gave the exchange — a queue's place, a connection, a span — for as
    /// long as the body takes.
    @inline(__always)
    package mutating func whenBodyEnds(_ action: @escaping @Sendable ((any Error)?) -> Void) {
        guard body.isStream else { return action(nil) }
        body = body.whenFinished(action)
    }

    /// A response with `statusCode`, `headers` and `body`, answering `url`: how a middleware,
    /// a mock or a test makes one.
    public init(
        statusCode: Int, headers: HTTPHeaderFields = [:], body: HTTPResponseBody = HTTPResponseBody(Data()), url: URL? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The parsed `Content-Type`, if present and well-formed.
    public var contentType: MediaType? {
        headers["Content-Type"].flatMap { MediaType($0) }
    }

    /// The body as text.
    ///
    /// The encoding is ``textReadEncoding`` if set; else the Content-Type's `charset`; else
    /// ISO-8859-1 for `text/*` types (RFC 2616 §3.7.1); else the one a byte-order mark names;
    /// else UTF-8 when the bytes are valid UTF-8. `nil` when the bytes do not decode.
    public var text: String? {
        TextDecoding.decode(data, mediaType: contentType, override: textReadEncoding)
    }
}

extension HTTPResponse {
    /// Where a response came from (``HTTPResponse/source``).
    public enum Source: Sendable, Hashable {
        /// The network, without the cache's help.
        case network
        /// A stored response, fresh (or allowed stale by the request), without the network.
        case cache
        /// A stored response the server confirmed with `304 Not Modified`.
        case revalidated
        /// A stored response past its freshness, given because the network failed or the
        /// response allows it (`stale-if-error`, `stale-while-revalidate`).
        case stale
    }

    /// Whether a response with this status and headers is a redirect a client follows: 301,
    /// 302, 303, 307 or 308 with a `Location`.
    package static func isRedirect(statusCode: Int, headers: HTTPHeaderFields) -> Bool {
        switch statusCode {
        case 301, 302, 303, 307, 308: headers.contains("Location")
        default: false
        }
    }
}
