import NIOCore
import NIOHTTP1
import NIOPosix

/// The playground server: a real HTTP/1.1 server on loopback, started in-process by tests, the
/// tour and `jewz serve`. Port 0 picks a free port, so runs never collide.
///
/// ```swift
/// let sandbox = try await Sandbox.start()
/// let cycle = try await HTTPCycle.get(sandbox.url("/hello/"))
/// try await sandbox.shutdown()
/// ```
public final class Sandbox: Sendable {
    /// The port the server listens on.
    public let port: Int
    /// The host the server listens on.
    public let host: String
    /// The routes, shared by every connection (and their counters).
    public let router: SandboxRouter
    private let channel: any Channel

    private init(host: String, port: Int, router: SandboxRouter, channel: any Channel) {
        self.host = host
        self.port = port
        self.router = router
        self.channel = channel
    }

    /// Starts a server on `host:port` (port 0: any free port).
    ///
    /// - Throws: SwiftNIO's error when the address cannot be bound.
    public static func start(host: String = "127.0.0.1", port: Int = 0) async throws -> Sandbox {
        let router = SandboxRouter()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(SandboxHandler(router: router))
                }
            }
            .bind(host: host, port: port)
            .get()
        guard let boundPort = channel.localAddress?.port else {
            try await channel.close()
            throw ChannelError.unknownLocalAddress
        }
        return Sandbox(host: host, port: boundPort, router: router, channel: channel)
    }

    /// `http://host:port`, without a trailing slash.
    public var baseURL: String { "http://\(host):\(port)" }

    /// The absolute URL string of a path on this server (`url("/hello/")`).
    public func url(_ path: String) -> String { baseURL + path }

    /// Stops accepting connections.
    public func shutdown() async throws {
        try await channel.close()
    }

    /// Waits until the server is closed (for `jewz serve`).
    public func waitUntilClosed() async throws {
        try await channel.closeFuture.get()
    }
}
