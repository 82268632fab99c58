import NIOCore
import NIOHTTP1
import NIOPosix

/// `jewz proxy`'s listening socket: each connection gets an HTTP/1.1 codec and a
/// ``ProxyHandler``, and reads only when the handler asks (so request bodies wait for the
/// upstream, and one request is served at a time).
struct ProxyServer: Sendable {
    let channel: any Channel

    /// Listens on `host:port` (0: a free port).
    ///
    /// - Throws: SwiftNIO's error when the address cannot be bound.
    static func start(host: String, port: Int, forwarder: ProxyForwarder) async throws -> ProxyServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let encoder = HTTPResponseEncoder()
                    let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes))
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(encoder)
                    try pipeline.addHandler(decoder)
                    try pipeline.addHandler(ProxyHandler(forwarder: forwarder, codec: [encoder, decoder]))
                }
            }
            .bind(host: host, port: port)
            .get()
        return ProxyServer(channel: channel)
    }

    /// The port it listens on.
    var port: Int { channel.localAddress?.port ?? 0 }

    /// Stops listening.
    func close() async {
        try? await channel.close()
    }

    /// Waits until it stops listening.
    func waitUntilClosed() async throws {
        try await channel.closeFuture.get()
    }
}
