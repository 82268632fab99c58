import Foundation
import JewzHTTPCore

extension HTTPEventSource {
    /// Connects, reads and reconnects as ``next()`` is called.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let source: HTTPEventSource
        private var parser: EventStreamParser
        private var body: HTTPResponseBody.AsyncIterator?
        private var ready: [ServerSentEvent] = []
        private var nextReady = 0
        private var connections = 0
        /// Connections in a row that failed, or ended, before an event arrived.
        private var failures = 0
        /// Whether the connection open now has given an event.
        private var connectionGaveEvent = false
        private var finished = false

        init(_ source: HTTPEventSource) {
            self.source = source
            let configuration = source.configuration
            parser = EventStreamParser(
                maximumLineLength: configuration.maximumLineLength, maximumEventSize: configuration.maximumEventSize,
                lastEventID: configuration.lastEventID)
            if let opened = source.opened?.take() {
                body = opened.makeAsyncIterator()
                connections = 1
            }
        }

        /// The next event; `nil` once the server answers 204, or a stream ends when the source
        /// does not reconnect.
        ///
        /// - Throws: ``EventSourceError`` (not an event stream, an event too large, too many
        ///   failed reconnections); `HTTPError` for a failing status (``/JewzHTTPCore/HTTPError/Code/statusCode``,
        ///   not retried), a line too long, and a transfer failure when the source does not
        ///   reconnect; `CancellationError` when the task is cancelled.
        public mutating func next() async throws -> ServerSentEvent? {
            while true {
                if nextReady < ready.count {
                    defer { nextReady += 1 }
                    failures = 0
                    connectionGaveEvent = true
                    return ready[nextReady]
                }
                guard !finished else { return nil }
                do {
                    if body == nil {
                        guard let opened = try await connect() else { return end() }
                        body = opened
                    }
                    if let chunk = try await body?.next() {
                        ready = try parser.events(in: chunk)
                        nextReady = 0
                    } else {
                        body = nil
                        parser.finish()
                        if !source.configuration.reconnects { return end() }
                        // A stream that ends before its first event is a failure, so that a
                        // server ending every one at once (with `retry: 0`) meets the back-off.
                        if !connectionGaveEvent { try countFailure(EventSourceError.emptyStream) }
                    }
                } catch {
                    body = nil
                    parser.finish()
                    try recover(from: error)
                }
            }
        }

        private mutating func end() -> ServerSentEvent? {
            finished = true
            return nil
        }

        /// Goes on after `error` when a reconnection may mend it; throws it otherwise.
        private mutating func recover(from error: any Error) throws {
            let lasting = Task.isCancelled || error is CancellationError || error is EventSourceError
                || (error as? HTTPError).map { [.statusCode, .lineTooLong, .cancelled, .invalidURL].contains($0.code) } ?? false
            guard !lasting, source.configuration.reconnects else {
                finished = true
                throw error
            }
            try countFailure(error)
        }

        /// Counts a connection that failed with `error`, or gave no event.
        ///
        /// - Throws: ``EventSourceError/Code/tooManyReconnects`` past the configured limit.
        private mutating func countFailure(_ error: any Error) throws {
            failures += 1
            if let limit = source.configuration.maximumReconnectAttempts, failures > limit {
                finished = true
                throw EventSourceError.tooManyReconnects(attempts: failures, last: error)
            }
        }

        /// Opens a connection, after the reconnection wait when it is not the first: its body,
        /// or `nil` when the server answered 204.
        private mutating func connect() async throws -> HTTPResponseBody.AsyncIterator? {
            if connections > 0 { try await Task.sleep(for: reconnectionDelay) }
            connections += 1
            connectionGaveEvent = false
            var request = source.request
            if !request.headers.contains("Accept") { request.headers["Accept"] = "text/event-stream" }
            request.headers["Cache-Control"] = "no-cache"
            request.headers["Last-Event-ID"] = parser.lastEventID.isEmpty ? nil : parser.lastEventID
            let response = try await source.session.stream(
                request, options: HTTPRequestOptions(caching: .init(policy: .reloadIgnoringCache, lifetime: .zero)))
            guard response.statusCode != 204 else { return nil }
            let contentType = response.headers["Content-Type"] ?? ""
            guard MediaType(contentType)?.essence == "text/event-stream" else {
                throw EventSourceError.notAnEventStream(contentType: contentType)
            }
            return response.body.makeAsyncIterator()
        }

        /// The server's `retry` (or the default); after failures in a row, at least
        /// ``HTTPEventSource/Configuration-swift.struct/minimumBackoff`` and doubled for each
        /// after the first; at most the configured maximum.
        private var reconnectionDelay: Duration {
            let configuration = source.configuration
            var delay = parser.reconnectionTime ?? configuration.defaultRetry
            if failures > 0 { delay = Swift.max(delay, configuration.minimumBackoff) }
            for _ in 0..<Swift.max(0, Swift.min(failures, 24) - 1) where delay < configuration.maximumRetry { delay *= 2 }
            return Swift.min(delay, configuration.maximumRetry)
        }
    }
}
