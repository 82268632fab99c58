import Foundation
import JewzHTTPCore
import NIOCore
import NIOPosix
import NIOSOCKS
import NIOSSL

/// Opens the connection a WebSocket runs on, with the session's transport settings: its
/// connect timeout, its Unix domain socket or its proxy for the URL (HTTP `CONNECT` or SOCKS5, a
/// tunnel in both cases) and, for `https`, TLS with its roots, client certificate and pins. HTTP/1.1 only: RFC 6455's
/// upgrade is HTTP/1.1's.
enum ChannelOpening {
    /// A connection to `url`'s host, with `configure` run on its pipeline in the event-loop turn
    /// that adds TLS: a handler it adds hears of a TLS failure, which cannot come before.
    ///
    /// - Throws: `HTTPError` (``HTTPError/Code/connectionFailed``, ``HTTPError/Code/timedOut``,
    ///   a TLS failure) or ``HTTPError/Code/invalidConfiguration`` for a SOCKS proxy with a password.
    static func open(
        to url: URL, on eventLoop: any EventLoop, settings: AsyncHTTPClientTransport.Configuration,
        configure: @escaping @Sendable (ChannelPipeline.SynchronousOperations) throws -> Void
    ) async throws -> any Channel {
        guard let host = url.host?.trimmingCharacters(in: CharacterSet(charactersIn: "[]")) else {
            throw HTTPError.invalidURL(url.absoluteString)
        }
        let port = url.effectivePort
        let isSecure = url.scheme?.lowercased() == "https"
        // A session that talks to a Unix domain socket opens its sockets there too; no proxy then.
        let socketPath = settings.unixSocketPath
        let proxy = socketPath == nil ? settings.proxies?.proxy(for: url) : nil
        if let proxy, proxy.kind == .socks5, proxy.credentials != nil {
            throw HTTPError.invalidConfiguration("WebSockets go through SOCKS5 proxies without a password only; use an HTTP proxy, or none")
        }
        let tls = try isSecure ? NIOSSLContext(configuration: settings.tls.nioConfiguration(http1OnlyTo: host)) : nil
        let bootstrap = ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(settings.timeouts.connect))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
        let connecting = socketPath.map { bootstrap.connect(unixDomainSocketPath: $0) }
            ?? bootstrap.connect(host: proxy?.host ?? host, port: proxy?.port ?? port)
        let channel = try await connecting.get()
        do {
            if let proxy {
                switch proxy.kind {
                case .socks5: try await tunnelSOCKS(channel, host: host, port: port)
                default: try await ConnectTunnel.open(channel, host: host, port: port, proxy: proxy)
                }
            }
            let serverName = AsyncHTTPClientTransport.Configuration.TLS.serverName(for: host)
            try await channel.eventLoop.submit {
                if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName)) }
                try configure(channel.pipeline.syncOperations)
            }.get()
            return channel
        } catch {
            channel.close(promise: nil)
            throw error
        }
    }

    /// Asks a SOCKS5 proxy for a tunnel to `host` and `port`, NIOSOCKS speaking the protocol.
    private static func tunnelSOCKS(_ channel: any Channel, host: String, port: Int) async throws {
        let established = channel.eventLoop.makePromise(of: Void.self)
        try await channel.eventLoop.submit {
            let client = SOCKSClientHandler(targetAddress: .domain(host, port: port))
            try channel.pipeline.syncOperations.addHandler(client)
            try channel.pipeline.syncOperations.addHandler(SOCKSEstablished(promise: established))
        }.get()
        channel.closeFuture.whenComplete { _ in established.fail(HTTPError.connectionFailed(reason: "the SOCKS5 proxy closed the connection")) }
        try await established.futureResult.get()
    }

    /// Completes its promise when NIOSOCKS says the tunnel is up, then leaves with the client.
    private final class SOCKSEstablished: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let promise: EventLoopPromise<Void>

        init(promise: EventLoopPromise<Void>) {
            self.promise = promise
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            guard event is SOCKSProxyEstablishedEvent else { return context.fireUserInboundEventTriggered(event) }
            let pipeline = context.pipeline.syncOperations
            if let client = try? pipeline.handler(type: SOCKSClientHandler.self) { pipeline.removeHandler(client, promise: nil) }
            pipeline.removeHandler(context: context, promise: nil)
            promise.succeed()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(HTTPError.connectionFailed(reason: "the SOCKS5 proxy refused the tunnel: \(error)"))
            context.close(promise: nil)
        }
    }
}
