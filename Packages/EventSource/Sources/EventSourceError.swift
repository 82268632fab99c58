/// Why an event stream ended with an error of this module's own. Transfer failures come as
/// `HTTPError`; a code added here later does not break a `switch` over ``code``.
public struct EventSourceError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// One event's data passed ``HTTPEventSource/Configuration-swift.struct/maximumEventSize``.
        public static let eventTooLarge = Code(name: "eventTooLarge")
        /// The server answered with something other than `text/event-stream`: the stream stops
        /// without reconnecting, as `EventSource` fails the connection.
        public static let notAnEventStream = Code(name: "notAnEventStream")
        /// Connections failed ``HTTPEventSource/Configuration-swift.struct/maximumReconnectAttempts``
        /// times in a row, with no event between; ``EventSourceError/underlying`` is the last failure.
        public static let tooManyReconnects = Code(name: "tooManyReconnects")
        /// A stream ended before its first event: the failure ``tooManyReconnects`` counts when
        /// a server keeps answering and closing at once.
        public static let emptyStream = Code(name: "emptyStream")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What the message names: the limit, the content type.
    private let detail: String
    /// The error underneath, for ``Code/tooManyReconnects``.
    public let underlying: (any Error)?

    private init(_ code: Code, _ detail: String, underlying: (any Error)? = nil) {
        self.code = code
        self.detail = detail
        self.underlying = underlying
    }

    /// An event's data is longer than `limit` bytes.
    public static func eventTooLarge(limit: Int) -> EventSourceError { EventSourceError(.eventTooLarge, String(limit)) }

    /// The answer's `Content-Type` is `contentType` (empty when it had none).
    public static func notAnEventStream(contentType: String) -> EventSourceError {
        EventSourceError(.notAnEventStream, contentType)
    }

    /// A stream ended before its first event.
    public static let emptyStream = EventSourceError(.emptyStream, "")

    /// `attempts` connections failed in a row, the last with `last`.
    public static func tooManyReconnects(attempts: Int, last: any Error) -> EventSourceError {
        EventSourceError(.tooManyReconnects, String(attempts), underlying: last)
    }

    /// What went wrong and what to do about it.
    public var description: String {
        switch code {
        case .eventTooLarge:
            "An event's data is longer than \(detail) bytes; raise maximumEventSize if the server's events are that large."
        case .notAnEventStream:
            "The server answered with \(detail.isEmpty ? "no Content-Type" : "'\(detail)'"), not text/event-stream; check the URL, or the server's error page."
        case .emptyStream:
            "The event stream ended before its first event."
        case .tooManyReconnects:
            "\(detail) connections in a row failed without an event; the last: \(underlying.map { String(describing: $0) } ?? "")"
        default:
            "\(code): \(detail)"
        }
    }
}
