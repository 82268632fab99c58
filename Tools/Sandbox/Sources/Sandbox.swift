import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// The playground server: a real HTTP/1.1 server on loopback, started in-process by tests, the
/// tour and `jewz serve`; with ``SandboxTLS``, HTTPS, and HTTP/2 for clients that ask for it
/// by ALPN. Port 0 picks a free port, so runs never collide.
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
    /// Whether the server speaks TLS.
    public let isSecure: Bool
    /// The Unix domain socket the server listens on instead of a port, if it does.
    public let socketPath: String?
    /// The routes, shared by every connection (and their counters).
    public let router: SandboxRouter
    private let channel: any Channel
    private let counter: ConnectionCounter

    private init(
        host: String, port: Int, isSecure: Bool, socketPath: String? = nil, router: SandboxRouter, channel: any Channel,
        counter: ConnectionCounter
    ) {
        self.host = host
        self.port = port
        self.isSecure = isSecure
        self.socketPath = socketPath
        self.router = router
        self.channel = channel
        self.counter = counter
    }

    /// How many connections the server has accepted: tests read it to see connections reused
    /// (keep-alive, HTTP/2 streams sharing one).
    public var connectionCount: Int { counter.count.load(ordering: .relaxed) }

    /// How many accepted connections are still open: tests read it to see a client close them.
    public var openConnectionCount: Int { counter.open.load(ordering: .relaxed) }

    /// Starts a server on `host:port` (port 0: any free port).
    ///
    /// - Parameter tls: how to speak TLS; `nil` for plain HTTP.
    /// - Throws: SwiftNIO's error when the address cannot be bound, NIOSSL's when the
    ///   certificates cannot be used.
    public static func start(host: String = "127.0.0.1", port: Int = 0, tls: SandboxTLS? = nil) async throws -> Sandbox {
        let router = SandboxRouter()
        let counter = ConnectionCounter()
        let channel = try await bootstrap(router: router, context: try tls?.makeContext(), counter: counter)
            .bind(host: host, port: port)
            .get()
        guard let boundPort = channel.localAddress?.port else {
            try await channel.close()
            throw ChannelError.unknownLocalAddress
        }
        return Sandbox(host: host, port: boundPort, isSecure: tls != nil, router: router, channel: channel, counter: counter)
    }

    /// Starts a plain-HTTP server on the Unix domain socket at `path` (made anew; removed
    /// again by ``shutdown()``). Its ``baseURL`` is `http://localhost`, for a session whose
    /// transport goes to the socket; ``socketURL(_:)`` names the socket in the URL instead.
    ///
    /// - Throws: SwiftNIO's error when the socket cannot be made there.
    public static func start(unixSocketPath path: String) async throws -> Sandbox {
        let router = SandboxRouter()
        let counter = ConnectionCounter()
        let channel = try await bootstrap(router: router, context: nil, counter: counter)
            .bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true)
            .get()
        return Sandbox(host: "localhost", port: 0, isSecure: false, socketPath: path, router: router, channel: channel, counter: counter)
    }

    /// `http+unix://SOCKET/path`: AsyncHTTPClient's URL for a path on this server's socket.
    public func socketURL(_ path: String) -> String {
        let encoded = socketPath?.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~"))) ?? ""
        return "http+unix://" + encoded + path
    }

    /// The server's bootstrap: every connection counted, TLS with ALPN when there is a context.
    private static func bootstrap(router: SandboxRouter, context: NIOSSLContext?, counter: ConnectionCounter) -> ServerBootstrap {
        ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                counter.count.add(1, ordering: .relaxed)
                counter.open.add(1, ordering: .relaxed)
                channel.closeFuture.whenComplete { _ in counter.open.subtract(1, ordering: .relaxed) }
                guard let context else {
                    return channel.eventLoop.makeCompletedFuture { try http1(channel, router: router) }
                }
                do {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
                // h2 or http/1.1, as ALPN settled it; each HTTP/2 stream gets a handler of its own.
                return channel.configureHTTP2SecureUpgrade(
                    h2ChannelConfigurator: { channel in
                        channel.configureHTTP2Pipeline(mode: .server) { stream in
                            stream.eventLoop.makeCompletedFuture {
                                try stream.pipeline.syncOperations.addHandler(SandboxStreamRefusal(router: router))
                                try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                                try stream.pipeline.syncOperations.addHandler(SandboxHandler(router: router))
                            }
                        }.map { _ in () }
                    },
                    http1ChannelConfigurator: { channel in
                        channel.eventLoop.makeCompletedFuture { try http1(channel, router: router) }
                    })
            }
    }

    /// An HTTP/1.1 connection's pipeline: the routes, and the WebSocket endpoints' upgrade.
    private static func http1(_ channel: any Channel, router: SandboxRouter) throws {
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (
                upgraders: [SandboxWebSockets.upgrader()],
                completionHandler: { context in
                    // The connection is a WebSocket's now: the HTTP routes leave it.
                    let pipeline = context.pipeline.syncOperations
                    if let routes = try? pipeline.handler(type: SandboxHandler.self) { pipeline.removeHandler(routes, promise: nil) }
                }),
            withErrorHandling: true)
        try channel.pipeline.syncOperations.addHandler(SandboxHandler(router: router))
    }

    /// `http://host:port` (`https` with TLS), without a trailing slash.
    public var baseURL: String {
        socketPath == nil ? "\(isSecure ? "https" : "http")://\(host):\(port)" : "http://localhost"
    }

    /// The absolute URL string of a path on this server (`url("/hello/")`).
    public func url(_ path: String) -> String { baseURL + path }

    /// Stops accepting connections (and removes its socket file).
    public func shutdown() async throws {
        try await channel.close()
        if let socketPath { unlink(socketPath) }
    }

    /// Waits until the server is closed (for `jewz serve`).
    public func waitUntilClosed() async throws {
        try await channel.closeFuture.get()
    }
}

/// The connections a server accepted, and those still open, counted on their event loops.
private final class ConnectionCounter: Sendable {
    let count = Atomic(0)
    let open = Atomic(0)
}
