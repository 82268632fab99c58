import Foundation
import NIOCore
import NIOHTTP1
import JewzSandbox
import NIOPosix

/// One client connection of `jewz proxy`, on its event loop: a request at a time, each handed to
/// a ``ProxyForwarder`` task; its body passed on through a ``BodyRelay``, the connection reading
/// only as fast as the upstream takes it; `CONNECT` (in forward mode) turned into a tunnel of
/// bytes nobody here reads. A client that goes away cancels its upstream request.
final class ProxyHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let forwarder: ProxyForwarder
    /// The HTTP codec's handlers, removed when the connection becomes a tunnel.
    private let codec: [any RemovableChannelHandler]
    private var context: ChannelHandlerContext?
    /// A request is being served (from its head until its answer is written).
    private var inFlight = false
    private var requestEnded = false
    /// The relay is full: reading waits until it has room.
    private var paused = false
    private var relay: BodyRelay?
    private var task: Task<Void, Never>?
    /// Whether the answer in flight is all out.
    private var answered: Answered?
    /// Where a `CONNECT` asked to go, until its request ends.
    private var tunnelTarget: (host: String, port: Int)?
    /// Parts of the next request, read while this one's answer is on its way (reading goes on
    /// then so that a client that leaves is noticed at once), handled after it.
    private var pending: [HTTPServerRequestPart] = []
    /// A `CONNECT` is turning the connection into a tunnel: nothing is read until it is one.
    private var tunnelling = false

    init(forwarder: ProxyForwarder, codec: [any RemovableChannelHandler]) {
        self.forwarder = forwarder
        self.codec = codec
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        context.read()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        guard !(inFlight && requestEnded) else {
            pending.append(part)
            return
        }
        handle(part, context: context)
    }

    private func handle(_ part: HTTPServerRequestPart, context: ChannelHandlerContext) {
        switch part {
        case .head(let head):
            inFlight = true
            requestEnded = false
            if head.method == .CONNECT {
                tunnelTarget = forwarder.mode.isForward ? Self.authority(head.uri) : nil
                if tunnelTarget == nil { tunnelTarget = ("", 0) }
                return
            }
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            let hasBody = head.headers["Content-Length"].first.flatMap(Int.init).map { $0 > 0 } ?? head.headers["Transfer-Encoding"].contains { $0.lowercased().contains("chunked") }
            let relay = hasBody ? BodyRelay { [eventLoop = context.eventLoop] in eventLoop.execute { bound.value.bodyHasRoom() } } : nil
            self.relay = relay
            let channel = context.channel
            let forwarder = self.forwarder
            let answered = Answered()
            self.answered = answered
            task = Task {
                let keepAlive = await forwarder.forward(head, body: relay, to: channel, answered: answered)
                channel.eventLoop.execute { bound.value.answerFinished(keepAlive: keepAlive) }
            }
        case .body(let buffer):
            if let relay, !relay.offer(Data(buffer: buffer)) { paused = true }
        case .end:
            requestEnded = true
            relay?.finish()
            if let target = tunnelTarget {
                tunnelTarget = nil
                tunnelling = !target.host.isEmpty
                openTunnel(to: target, context: context)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if mayRead { context.read() }
        context.fireChannelReadComplete()
    }

    /// Whether to read on: not while a body waits for the upstream, nor once the next request
    /// has begun to arrive before this one's answer is out.
    private var mayRead: Bool { !paused && pending.isEmpty && !tunnelling }

    func channelInactive(context: ChannelHandlerContext) {
        if answered?.isMarked != true { task?.cancel() }
        relay?.fail(CancellationError())
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func bodyHasRoom() {
        paused = false
        if mayRead { context?.read() }
    }

    private func answerFinished(keepAlive: Bool) {
        inFlight = false
        task = nil
        relay = nil
        answered = nil
        guard let context, keepAlive else {
            context?.close(promise: nil)
            return
        }
        let waiting = pending
        pending = []
        for (index, part) in waiting.enumerated() {
            // A request that ends while the parts are handled puts the rest back to wait again.
            guard !(inFlight && requestEnded) else {
                pending = Array(waiting[index...])
                return
            }
            handle(part, context: context)
        }
        if mayRead { context.read() }
    }

    /// `host:port` of a `CONNECT` target.
    private static func authority(_ target: String) -> (host: String, port: Int)? {
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]), (1...65535).contains(port) else {
            return nil
        }
        let host = target[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host.isEmpty ? nil : (host, port)
    }

    /// Connects to `target`, answers 200 and joins the two connections byte for byte; answers
    /// 502 when the connection fails, 405 in reverse mode.
    private func openTunnel(to target: (host: String, port: Int), context: ChannelHandlerContext) {
        let channel = context.channel
        guard !target.host.isEmpty else {
            let isForward = forwarder.mode.isForward
            let reason = isForward ? "CONNECT takes host:port" : "a reverse proxy takes no CONNECT"
            Task { await ProxyForwarder.answer(isForward ? 400 : 405, reason, to: channel) }
            inFlight = false
            if mayRead { context.read() }
            return
        }
        printError("proxy CONNECT \(target.host):\(target.port) → tunnel (bytes passed untouched: not recorded, not cached)")
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .connect(host: target.host, port: target.port)
            .assumeIsolated()
            .whenComplete { result in
                bound.value.tunnelConnected(result)
            }
    }

    private func tunnelConnected(_ result: Result<any Channel, any Error>) {
        guard let context else { return }
        switch result {
        case .failure(let error):
            let channel = context.channel
            Task { await ProxyForwarder.answer(502, "jewz proxy: cannot reach the CONNECT target: \(error)", to: channel) }
            inFlight = false
            tunnelling = false
            if mayRead { context.read() }
        case .success(let upstream):
            becomeTunnel(to: upstream)
        }
    }

    /// Takes the HTTP codec and this handler out, answers 200 and glues the connection to
    /// `upstream`. The answer is written as bytes, past the codec: its encoder would frame an
    /// answer without a length as chunked, and a tunnel's 200 has no body at all.
    private func becomeTunnel(to upstream: any Channel) {
        guard let context else {
            upstream.close(promise: nil)
            return
        }
        let (local, remote) = ProxyGlue.pair()
        do {
            // The glue goes in before the decoder leaves, so that bytes it held past the
            // CONNECT request reach the glue rather than this handler.
            try upstream.pipeline.syncOperations.addHandler(remote)
            let pipeline = context.pipeline.syncOperations
            try pipeline.addHandler(local, position: .before(self))
            for handler in codec where handler is HTTPResponseEncoder { pipeline.removeHandler(handler, promise: nil) }
            let answer = "HTTP/1.1 200 Connection Established\r\nVia: \(ProxyHeaders.via)\r\n\r\n"
            context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: answer)), promise: nil)
            for handler in codec where !(handler is HTTPResponseEncoder) { pipeline.removeHandler(handler, promise: nil) }
            let channel = context.channel
            pipeline.removeHandler(self, promise: nil)
            channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in channel.close(promise: nil) }
        } catch {
            context.close(promise: nil)
            upstream.close(promise: nil)
        }
    }
}
