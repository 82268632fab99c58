import JewzHTTPCore

/// When and how often ``JewzHTTPCore/HTTPSession/withReconnectingWebSocket(_:options:reconnection:_:)``
/// opens its socket again.
public struct WebSocketReconnection: Sendable {
    /// The wait before reopening after a connection that ended or failed; doubled after each
    /// failure to open in a row.
    public var initialDelay: Duration
    /// The longest wait between two attempts.
    public var maximumDelay: Duration
    /// Attempts to open that may fail in a row before the last failure is thrown; `nil` for no limit.
    public var maximumFailures: Int?

    /// Reconnection with backoff from `initialDelay` to `maximumDelay`.
    public init(initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30), maximumFailures: Int? = 10) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumFailures = maximumFailures
    }

    /// Whether a failure is worth another attempt: the network's and the connection's, a
    /// server's 5xx or 429; not a refusal the next attempt would meet again.
    static func retries(after error: any Error) -> Bool {
        switch error {
        case let error as WebSocketError:
            guard error.code == .handshakeRejected else { return error.code != .invalidURL && error.code != .closed }
            return error.response.map { $0.statusCode >= 500 || $0.statusCode == 429 } ?? false
        case let error as HTTPError:
            return [.connectionFailed, .connectionLost, .timedOut, .tlsHandshakeFailed].contains(error.code)
        default:
            return false
        }
    }
}

