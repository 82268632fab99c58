import JewzHTTPCore

/// Why a WebSocket could not open, or failed once open. The session's own failures during the
/// opening handshake (a refused connection, a `401`, a timeout) come as `HTTPError`; a code
/// added here later does not break a `switch` over ``code``.
public struct WebSocketError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The server answered the opening handshake, but not as a WebSocket server does:
        /// another status than `101`, a wrong `Sec-WebSocket-Accept`, a subprotocol or an
        /// extension the client did not offer.
        public static let handshakeRejected = Code(name: "handshakeRejected")
        /// The server broke RFC 6455 (a masked frame, a reserved bit, an unknown opcode, a bad
        /// fragment or close frame); the connection was failed with ``WebSocket/CloseCode/protocolError``.
        public static let protocolViolation = Code(name: "protocolViolation")
        /// A text message was not valid UTF-8; failed with ``WebSocket/CloseCode/invalidPayload``.
        public static let invalidUTF8 = Code(name: "invalidUTF8")
        /// A message, as received or once inflated, passed
        /// ``WebSocketOptions/maximumMessageSize``; failed with ``WebSocket/CloseCode/messageTooBig``.
        public static let messageTooBig = Code(name: "messageTooBig")
        /// No pong answered a keep-alive ping within ``WebSocketOptions/pingTimeout``.
        public static let pingTimedOut = Code(name: "pingTimedOut")
        /// The connection was lost without a closing handshake.
        public static let connectionLost = Code(name: "connectionLost")
        /// A message was sent after the connection began to close.
        public static let closed = Code(name: "closed")
        /// The URL is not a `ws`, `wss`, `http` or `https` URL with a host.
        public static let invalidURL = Code(name: "invalidURL")

        /// The code's name.
        public var description: String { name }
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong, in words for the user.
    public let detail: String
    /// The handshake's answer, for ``Code/handshakeRejected``.
    public let response: HTTPResponse?

    init(_ code: Code, _ detail: String, response: HTTPResponse? = nil) {
        self.code = code
        self.detail = detail
        self.response = response
    }

    /// What went wrong and what to do about it.
    public var description: String {
        switch code {
        case .handshakeRejected: "The server did not open a WebSocket: \(detail). Check the URL and that the server speaks WebSocket there."
        case .protocolViolation: "The server broke the WebSocket protocol: \(detail)."
        case .invalidUTF8: "A text message from the server is not valid UTF-8\(detail.isEmpty ? "" : " (\(detail))")."
        case .messageTooBig: "A message is larger than \(detail) bytes; raise maximumMessageSize if the server's messages are that large."
        case .pingTimedOut: "The server did not answer a ping within \(detail): the connection is dead."
        case .connectionLost: "The connection was lost without a closing handshake\(detail.isEmpty ? "" : ": \(detail)")."
        case .closed: "The WebSocket is closing or closed; open a new one to send again."
        case .invalidURL: "'\(detail)' is not a WebSocket URL: use ws://host/path or wss://host/path."
        default: "\(code): \(detail)"
        }
    }
}
