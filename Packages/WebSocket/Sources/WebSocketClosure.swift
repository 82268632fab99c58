extension WebSocket {
    /// How a connection ended: the close frame's code and reason, or ``CloseCode/abnormalClosure``
    /// when none came.
    public struct Closure: Sendable, Hashable {
        /// The code the peer sent (``CloseCode/noStatusReceived`` for a close frame without one),
        /// or the one this side failed the connection with.
        public var code: CloseCode
        /// The reason, UTF-8 text of at most 123 bytes; empty when none was given.
        public var reason: String
        /// Whether the server sent a close frame: the closing handshake completed.
        public var wasClean: Bool

        /// A closure with `code` and `reason`; `wasClean` when both sides said goodbye.
        public init(code: CloseCode, reason: String, wasClean: Bool) {
            self.code = code
            self.reason = reason
            self.wasClean = wasClean
        }
    }
}
