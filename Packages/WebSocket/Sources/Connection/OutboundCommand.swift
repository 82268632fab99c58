import NIOCore

/// What a ``WebSocket`` asks its connection to send.
enum OutboundCommand: Sendable {
    case message(WebSocket.Message)
    case ping(ByteBuffer)
    case close(WebSocket.CloseCode, String)
}

