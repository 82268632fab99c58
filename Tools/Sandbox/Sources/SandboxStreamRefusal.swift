import Foundation
import NIOCore
import NIOHTTP2

/// Refuses an HTTP/2 stream unprocessed — `RST_STREAM` with `REFUSED_STREAM` (RFC 9113 §8.7),
/// as a server at its stream limit or shedding load does — the first time a request for
/// `/counter?key=K&refuse=1` comes; the routes never see it. Later requests for the key pass.
final class SandboxStreamRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTP2Frame.FramePayload
    typealias InboundOut = HTTP2Frame.FramePayload
    typealias OutboundOut = HTTP2Frame.FramePayload

    private let router: SandboxRouter
    private var refused = false

    init(router: SandboxRouter) {
        self.router = router
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        if case .headers(let headers) = unwrapInboundIn(data), let path = headers.headers.first(name: ":path"),
            let key = Self.refusalKey(in: path), router.refusesStream(forKey: key)
        {
            refused = true
            context.writeAndFlush(wrapOutboundOut(.rstStream(.refusedStream)), promise: nil)
            return
        }
        context.fireChannelRead(data)
    }

    /// The key of a `/counter` request that asks to be refused once.
    private static func refusalKey(in path: String) -> String? {
        guard let components = URLComponents(string: path), components.path == "/counter" else { return nil }
        let query = components.queryItems ?? []
        guard query.contains(where: { $0.name == "refuse" && $0.value == "1" }) else { return nil }
        return query.first { $0.name == "key" }?.value
    }
}
