import Foundation
import JewzLocking
import NIOCore
import NIOPosix

/// A forward proxy on loopback, for the tests and the tour: HTTP `CONNECT` tunnels (with Basic
/// credentials when given, a 407 without them) or SOCKS5 (no authentication), both relaying
/// bytes to the target untouched. It tunnels to loopback targets only.
///
/// ```swift
/// let proxy = try await SandboxProxy.start(.http, credentials: ("user", "secret"))
/// // Point a client at proxy.url; proxy.tunnels lists the targets it connected to.
/// ```
public final class SandboxProxy: Sendable {
    public enum Kind: Sendable {
        case http, socks5
    }

    public let kind: Kind
    public let host: String
    public let port: Int
    private let channel: any Channel
    private let log: TunnelLog

    private init(kind: Kind, host: String, port: Int, channel: any Channel, log: TunnelLog) {
        self.kind = kind
        self.host = host
        self.port = port
        self.channel = channel
        self.log = log
    }

    /// `http://host:port` or `socks5://host:port`.
    public var url: String { "\(kind == .http ? "http" : "socks5")://\(host):\(port)" }

    /// The targets of the tunnels opened so far (`127.0.0.1:8080`), in order.
    public var tunnels: [String] { log.targets.withLock { $0 } }

    /// How many handshakes were refused for missing or wrong credentials.
    public var refusedHandshakes: Int { log.refused.withLock { $0 } }

    /// Starts a proxy on `host:port` (port 0: any free port).
    ///
    /// - Parameter credentials: for `.http`, the user and password a client must send in
    ///   `Proxy-Authorization`; `nil` to accept any client.
    /// - Throws: SwiftNIO's error when the address cannot be bound.
    public static func start(
        _ kind: Kind, credentials: (user: String, password: String)? = nil, host: String = "127.0.0.1", port: Int = 0
    ) async throws -> SandboxProxy {
        let log = TunnelLog()
        let expected = credentials.map { "Basic " + Data("\($0.user):\($0.password)".utf8).base64EncodedString() }
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ProxyHandshake(kind: kind, expectedAuthorization: expected, log: log))
                }
            }
            .bind(host: host, port: port)
            .get()
        guard let boundPort = channel.localAddress?.port else {
            try await channel.close()
            throw ChannelError.unknownLocalAddress
        }
        return SandboxProxy(kind: kind, host: host, port: boundPort, channel: channel, log: log)
    }

    /// Stops accepting connections; open tunnels end with their peers.
    public func shutdown() async throws {
        try await channel.close()
    }
}

/// What a proxy did, for tests to read.
final class TunnelLog: Sendable {
    let targets = Mutex<[String]>([])
    let refused = Mutex(0)
}
