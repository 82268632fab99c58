import Foundation

/// What came back: status, headers, the body as ``data``, and the ``object`` that the response
/// processors made of it.
public struct HTTPResponse: Sendable {
    public var statusCode: Int
    public var headers: HTTPHeaderFields
    /// The body as received, after content decoding.
    public var data: Data
    /// The model the response processors made from ``data`` (parsed JSON, form fields…).
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
    /// The body as a stream of chunks, read once: one still arriving for a run whose body goes
    /// to a download's file or a stream's reader, or one a cache reads from its store. Then
    /// ``data`` is empty, and once the response is back at the top of the path the run sends
    /// what this gives to the file or the reader, or gathers it into ``data`` for a run that
    /// keeps bodies in memory. A middleware may read it, wrap it (``HTTPResponseBody/map(_:)``)
    /// or replace it; `nil` for a body in ``data``.
    public var stream: HTTPResponseBody? {
        get { if case .streaming(let body) = bodyState { body } else { nil } }
        set { bodyState = newValue.map(BodyState.streaming) ?? .inData }
    }
    /// Whether the body went to a download's file or a stream's reader rather than into
    /// ``data``: a response a middleware made itself has not, and its run delivers it there.
    package var isBodyDelivered: Bool {
        get { if case .delivered = bodyState { true } else { false } }
        set { bodyState = newValue ? .delivered : .inData }
    }
    /// Whether this is the head of a body the transport stage's collector is putting into a
    /// bridge, which that stage hands up as ``stream``: set on the collector's heads only.
    package var isBodyArriving: Bool {
        get { if case .arriving = bodyState { true } else { false } }
        set { bodyState = newValue ? .arriving : .inData }
    }
    /// Where the body is, in one field: a response is moved through every stage's async frame.
    private var bodyState = BodyState.inData

    private enum BodyState: Sendable {
        case inData
        case streaming(HTTPResponseBody)
        case arriving
        case delivered
    }

    /// Calls `action` when the exchange this response ends is over: at once for a body that
    /// is whole, at the end of ``stream`` (with what ended it) for one still arriving. How a
    /// stage holds what it gave the exchange — a queue's place, a connection, a span — for as
    /// long as the body takes.
    @inline(__always)
    package mutating func whenBodyEnds(_ action: @escaping @Sendable ((any Error)?) -> Void) {
        guard let stream else { return action(nil) }
        self.stream = stream.whenFinished(action)
    }

    public init(
        statusCode: Int, headers: HTTPHeaderFields = [:], data: Data = Data(), url: URL? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.data = data
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
    static func isRedirect(statusCode: Int, headers: HTTPHeaderFields) -> Bool {
        switch statusCode {
        case 301, 302, 303, 307, 308: headers.contains("Location")
        default: false
        }
    }
}
