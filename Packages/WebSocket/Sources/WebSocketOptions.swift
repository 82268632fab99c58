import JewzHTTPCore

/// What one WebSocket uses: what it offers the server, its limits, its keep-alive. Everything
/// else — TLS, proxies, cookies, credentials, middleware — is the session's, as for a request.
///
/// ```swift
/// var options = WebSocketOptions(subprotocols: ["graphql-transport-ws"])
/// options.pingInterval = .seconds(20)
/// options.maximumMessageSize = 64 << 20
/// ```
public struct WebSocketOptions: Sendable {
    /// Subprotocols offered in `Sec-WebSocket-Protocol`, preferred first; the server picks one
    /// (``WebSocket/subprotocol``) or none.
    public var subprotocols: [String]
    /// The largest message taken, as received and once inflated; a larger one fails the
    /// connection with ``WebSocket/CloseCode/messageTooBig``. 16 MiB unless set.
    public var maximumMessageSize: Int
    /// How often to ping the server while the connection is open, so that a dead connection
    /// is noticed and idle proxies keep it; `nil` for never.
    public var pingInterval: Duration?
    /// How long a keep-alive ping waits for its pong before the connection is failed
    /// (``WebSocketError/Code/pingTimedOut``).
    public var pingTimeout: Duration
    /// How long a close waits for the server's close frame before it drops the connection.
    public var closeTimeout: Duration
    /// Inbound messages buffered while the reader is busy; past them the socket is not read,
    /// so a slow reader slows the server.
    public var bufferedMessages: Int
    /// permessage-deflate, offered to the server; `nil` offers no compression.
    public var compression: PerMessageDeflate?
    /// The per-call options of the opening handshake: its authentications, retry policy.
    public var request: HTTPRequestOptions

    /// Options with the given values; the defaults suit most servers.
    public init(
        subprotocols: [String] = [], maximumMessageSize: Int = 16 << 20, pingInterval: Duration? = nil,
        pingTimeout: Duration = .seconds(10), closeTimeout: Duration = .seconds(5), bufferedMessages: Int = 16,
        compression: PerMessageDeflate? = PerMessageDeflate(), request: HTTPRequestOptions = HTTPRequestOptions()
    ) {
        self.subprotocols = subprotocols
        self.maximumMessageSize = maximumMessageSize
        self.pingInterval = pingInterval
        self.pingTimeout = pingTimeout
        self.closeTimeout = closeTimeout
        self.bufferedMessages = bufferedMessages
        self.compression = compression
        self.request = request
    }
}
