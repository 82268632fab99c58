import Foundation
import JewzHTTPCore
import JewzLocking

/// Server-Sent Events from a URL, as an `AsyncSequence` that reconnects as `EventSource` does:
/// when the stream ends or the connection drops it waits the server's `retry` (or
/// ``Configuration-swift.struct/defaultRetry``), sends `Last-Event-ID`, and goes on; it ends on
/// a 204 and fails on an answer that is not `text/event-stream`. Connections that fail or give
/// no event back off (``Configuration-swift.struct/minimumBackoff``, doubling).
///
/// Every connection is a cycle of `session`: its middleware, authentication (a token refreshed
/// between two connections is the one sent), cookies, proxies and transport apply. The body is
/// read as the loop asks for events, so a slow reader slows the server; leaving the loop or
/// cancelling its task closes the connection.
///
/// ```swift
/// for try await event in HTTPEventSource(url: URL(string: "https://api.example.com/feed")!) {
///     print(event.type, event.data)
/// }
/// ```
public struct HTTPEventSource: AsyncSequence, Sendable {
    /// An event received.
    public typealias Element = ServerSentEvent

    /// How the source reconnects and what it holds in memory.
    public struct Configuration: Sendable {
        /// Whether to reconnect when a stream ends or drops. Default: `true`.
        public var reconnects: Bool
        /// The wait before reconnecting until the server sends `retry`. Default: 3 s.
        public var defaultRetry: Duration
        /// The longest wait: caps a server's `retry` and the backoff after failures. Default: 5 min.
        public var maximumRetry: Duration
        /// The shortest wait after a connection that failed or gave no event, whatever the
        /// server's `retry` (which may be 0): a server cannot make the source reconnect in a
        /// tight loop. Default: 250 ms.
        public var minimumBackoff: Duration
        /// How many connections in a row may fail without an event before the sequence throws
        /// ``EventSourceError/Code/tooManyReconnects``; `nil` retries for as long as the loop
        /// runs, as a browser does. Default: `nil`.
        public var maximumReconnectAttempts: Int?
        /// The most bytes one line may hold. Default: 1 MiB.
        public var maximumLineLength: Int
        /// The most bytes one event's data may hold. Default: 8 MiB.
        public var maximumEventSize: Int
        /// The ID to resume after on the first connection (a `Last-Event-ID` kept from an
        /// earlier run); empty for none.
        public var lastEventID: String

        /// Settings with the given values; the defaults follow the HTML standard's event source.
        public init(
            reconnects: Bool = true, defaultRetry: Duration = .seconds(3), maximumRetry: Duration = .seconds(300),
            minimumBackoff: Duration = .milliseconds(250), maximumReconnectAttempts: Int? = nil, maximumLineLength: Int = 1 << 20, maximumEventSize: Int = 8 << 20,
            lastEventID: String = ""
        ) {
            self.reconnects = reconnects
            self.defaultRetry = defaultRetry
            self.maximumRetry = maximumRetry
            self.minimumBackoff = minimumBackoff
            self.maximumReconnectAttempts = maximumReconnectAttempts
            self.maximumLineLength = maximumLineLength
            self.maximumEventSize = maximumEventSize
            self.lastEventID = lastEventID
        }
    }

    /// The request each connection sends, with `Accept: text/event-stream` added unless it
    /// has an `Accept`, and `Last-Event-ID` set as the stream goes.
    public let request: HTTPRequest
    /// The session that sends it.
    public let session: HTTPSession
    /// How the source reconnects and how much it accepts.
    public let configuration: Configuration

    /// An event source for `request`, sent with `session`.
    public init(request: HTTPRequest, session: HTTPSession = .default, configuration: Configuration = Configuration()) {
        self.request = request
        self.session = session
        self.configuration = configuration
    }

    /// A source of the events at `url`.
    public init(url: URL, session: HTTPSession = .default, configuration: Configuration = Configuration()) {
        self.init(request: HTTPRequest(url: url), session: session, configuration: configuration)
    }

    /// A source that reads `body` first — an event stream opened already, with
    /// ``/JewzHTTPCore/HTTPSession/stream(_:options:)`` (after looking at its head, or with a request
    /// only you could send) — and reconnects with `request` as usual once it ends. Only the
    /// first iterator reads `body`.
    public init(continuing body: HTTPResponseBody, request: HTTPRequest, session: HTTPSession = .default, configuration: Configuration = Configuration()) {
        self.init(request: request, session: session, configuration: configuration)
        opened = OpenedBody(body)
    }

    /// A body opened by the caller, handed to the first iterator that asks.
    final class OpenedBody: Sendable {
        private let body: Mutex<HTTPResponseBody?>

        init(_ body: HTTPResponseBody) {
            self.body = Mutex(body)
        }

        func take() -> HTTPResponseBody? {
            body.withLock { body in
                defer { body = nil }
                return body
            }
        }
    }

    /// The stream opened by the caller, if any.
    private(set) var opened: OpenedBody?

    /// An iterator over the events; iterating connects, ending the iteration disconnects.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(self)
    }
}
