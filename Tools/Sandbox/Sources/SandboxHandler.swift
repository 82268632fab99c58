import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix

/// Collects one request at a time (the pipeline handler serializes pipelined requests), asks
/// the router for the answer, and writes it as the route's delivery says.
final class SandboxHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let router: SandboxRouter
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    private var bodyTooLarge = false

    init(router: SandboxRouter) {
        self.router = router
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
            bodyTooLarge = false
        case .body(var chunk):
            if body.readableBytes + chunk.readableBytes > SandboxRouter.maximumRequestBodySize {
                bodyTooLarge = true
            } else if !bodyTooLarge {
                body.writeBuffer(&chunk)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            let keepAlive = head.isKeepAlive && !bodyTooLarge
            let isHead = head.method == .HEAD
            if bodyTooLarge {
                let response = SandboxResponse(status: 413, body: Data("request body too large".utf8))
                respond(response, keepAlive: keepAlive, omitBody: isHead, context: context)
                return
            }
            let request = SandboxRequest(
                method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { (name: $0.name, value: $0.value) },
                body: Data(buffer: body, byteTransferStrategy: .copy))
            // Routes may compute (a gzip bomb, large bodies): run them off the event loop so
            // that other connections keep being served meanwhile.
            let router = self.router
            NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop) { router.respond(to: request) }
                .assumeIsolated()
                .whenComplete { result in
                    let response = (try? result.get()) ?? SandboxResponse(status: 500)
                    self.respond(response, keepAlive: keepAlive, omitBody: isHead, context: context)
                }
        }
    }

    /// Writes the response now, or after the route's delay.
    private func respond(_ response: SandboxResponse, keepAlive: Bool, omitBody: Bool, context: ChannelHandlerContext) {
        if response.delay == .zero {
            write(response, keepAlive: keepAlive, omitBody: omitBody, context: context)
        } else {
            let (seconds, attoseconds) = response.delay.components
            let delay = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
                self.write(response, keepAlive: keepAlive, omitBody: omitBody, context: context)
            }
        }
    }

    private func write(_ response: SandboxResponse, keepAlive: Bool, omitBody: Bool, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        var headers = HTTPHeaders(response.headers.map { ($0.name, $0.value) })
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(
            version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        switch response.delivery {
        case .dropAfter(let count):
            let partial = context.channel.allocator.buffer(bytes: response.body.prefix(count))
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(partial))), promise: nil)
            context.close(promise: nil)
        case .complete:
            if !omitBody, !response.body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: response.body)))), promise: nil)
            }
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                if !keepAlive { channel.close(promise: nil) }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
