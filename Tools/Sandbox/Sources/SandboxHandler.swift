import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOWebSocket
import NIOPosix
import Synchronization

/// Collects one request at a time (the pipeline handler serializes pipelined requests), asks
/// the router for the answer, and writes it as the route's delivery says.
final class SandboxHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let router: SandboxRouter
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    private var bodyTooLarge = false
    /// An upload to `/sink` being counted.
    private var sink: SandboxStreams.Sink?
    /// Whether the request is a `/duplex`, whose body parts are echoed as they arrive.
    private var duplex = false
    /// A `/download/N` being written, as the connection accepts more.
    private var download: (plan: SandboxStreams.Download, next: Int64, sent: Int64, keepAlive: Bool)?

    /// This handler's connection (or stream), numbered as connections come.
    private let connection = SandboxHandler.connections.add(1, ordering: .relaxed).newValue
    private static let connections = Atomic(0)

    /// Where routes run: a pool of the Sandbox's own. The clients a test runs beside it block
    /// threads of NIO's shared pool (a disk cache waiting on another process's lock, a file
    /// body being read), and no route should wait for them to answer.
    private static let routes: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(2, System.coreCount))
        pool.start()
        return pool
    }()

    init(router: SandboxRouter) {
        self.router = router
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
            bodyTooLarge = false
            sink = SandboxStreams.sink(uri: head.uri, headers: head.headers.map { ($0.name, $0.value) })
            duplex = head.uri.split(separator: "?").first == "/duplex"
            if duplex { startDuplex(head, context: context) }
        case .body(let chunk) where duplex:
            // Each part goes back at once: a client that waits for it before sending the next
            // only gets it if it reads while it writes.
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(chunk))), promise: nil)
        case .end(let trailers) where duplex:
            duplex = false
            let head = self.head
            self.head = nil
            // The request's trailers come back as the response's.
            let closes = head.map { $0.version.major < 2 && !$0.isKeepAlive } ?? false
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(trailers))).whenComplete { _ in
                if closes { channel.close(promise: nil) }
            }
        case .body(var chunk):
            if var sink {
                sink.consume(chunk)
                self.sink = sink
                if sink.shouldDrop { context.close(promise: nil) }
                return
            }
            if body.readableBytes + chunk.readableBytes > SandboxRouter.maximumRequestBodySize {
                bodyTooLarge = true
            } else if !bodyTooLarge {
                body.writeBuffer(&chunk)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            // An HTTP/2 stream ends with its response; the connection is not the handler's to close.
            let isHTTP2 = head.version.major == 2
            let keepAlive = isHTTP2 || (head.isKeepAlive && !bodyTooLarge)
            let isHead = head.method == .HEAD
            if let sink {
                self.sink = nil
                let response = SandboxResponse(status: 200, headers: [("Content-Type", "application/json")], body: sink.report)
                respond(response, keepAlive: keepAlive, omitBody: isHead, context: context)
                return
            }
            if let plan = SandboxStreams.plan(download: head.uri, headers: head.headers.map { ($0.name, $0.value) }) {
                startDownload(plan, keepAlive: keepAlive, omitBody: isHead, context: context)
                return
            }
            if bodyTooLarge {
                let response = SandboxResponse(status: 413, body: Data("request body too large".utf8))
                respond(response, keepAlive: keepAlive, omitBody: isHead, context: context)
                return
            }
            let request = SandboxRequest(
                // NIO names SSDP's method without its hyphen; the wire spells it M-SEARCH.
                method: head.method == .MSEARCH ? "M-SEARCH" : head.method.rawValue, uri: head.uri, version: "HTTP/\(head.version.major).\(head.version.minor)",
                headers: head.headers.map { (name: $0.name, value: $0.value) },
                body: Data(buffer: body, byteTransferStrategy: .copy), connection: connection)
            // Routes may compute (a gzip bomb, large bodies): run them off the event loop so
            // that other connections keep being served meanwhile.
            let router = self.router
            Self.routes.runIfActive(eventLoop: context.eventLoop) { router.respond(to: request) }
                .assumeIsolated()
                .whenComplete { result in
                    let response = (try? result.get()) ?? SandboxResponse(status: 500)
                    self.respond(response, keepAlive: keepAlive, omitBody: isHead, context: context)
                }
        }
    }

    /// Answers a `/duplex` at its head: `200`, its body to come part by part as the request's
    /// arrives, chunked over HTTP/1.1.
    private func startDuplex(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        var headers = HTTPHeaders([("Content-Type", head.headers.first(name: "Content-Type") ?? "application/octet-stream")])
        if head.version.major < 2 { headers.add(name: "Transfer-Encoding", value: "chunked") }
        let response = HTTPResponseHead(version: head.version.major < 2 ? .http1_1 : head.version, status: .ok, headers: headers)
        context.writeAndFlush(wrapOutboundOut(.head(response)), promise: nil)
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
        if case .paced(let pieces, let interval, let ending) = response.delivery {
            headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
            if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
            let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
            context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
            let (seconds, attoseconds) = interval.components
            let pause = TimeAmount.nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
            writePaced(omitBody ? [] : pieces[...], every: pause, ending: ending, keepAlive: keepAlive, context: context)
            return
        }
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
        case .paced:
            break  // written above
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

    /// Writes the first of `pieces` now and the rest one `pause` apart, then ends the body as
    /// `ending` says; stops when the client goes.
    private func writePaced(
        _ pieces: ArraySlice<Data>, every pause: TimeAmount, ending: SandboxResponse.Ending, keepAlive: Bool, context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        guard let piece = pieces.first else {
            switch ending {
            case .complete:
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                    if !keepAlive { channel.close(promise: nil) }
                }
            case .drop:
                context.close(promise: nil)
            case .hold:
                break
            }
            return
        }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(data: piece)))), promise: nil)
        let rest = pieces.dropFirst()
        // The end follows the last piece at once; pieces are `pause` apart.
        guard !rest.isEmpty else { return writePaced(rest, every: pause, ending: ending, keepAlive: keepAlive, context: context) }
        context.eventLoop.assumeIsolated().scheduleTask(in: pause) {
            self.writePaced(rest, every: pause, ending: ending, keepAlive: keepAlive, context: context)
        }
    }

    private func startDownload(_ plan: SandboxStreams.Download, keepAlive: Bool, omitBody: Bool, context: ChannelHandlerContext) {
        var headers = HTTPHeaders(plan.headers.map { ($0.name, $0.value) })
        if plan.chunked {
            headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
        } else {
            headers.replaceOrAdd(name: "Content-Length", value: String(plan.range.count))
        }
        if !keepAlive { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: plan.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        var plan = plan
        if omitBody { plan.range = plan.range.lowerBound..<plan.range.lowerBound }
        download = (plan, plan.range.lowerBound, 0, keepAlive)
        pumpDownload(context: context)
    }

    /// Writes pattern chunks while the connection takes them; resumes on writability.
    private func pumpDownload(context: ChannelHandlerContext) {
        while let current = download, context.channel.isWritable {
            let remaining = current.plan.range.upperBound - current.next
            let beforeDrop = current.plan.dropAfter.map { $0 - current.sent } ?? remaining
            if remaining == 0 {
                download = nil
                let channel = context.channel
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                    if !current.keepAlive { channel.close(promise: nil) }
                }
                return
            }
            if beforeDrop <= 0 {
                download = nil
                context.flush()
                context.close(promise: nil)
                return
            }
            let beforeStall = current.plan.stallAfter.map { $0 - current.sent } ?? remaining
            if beforeStall <= 0 {
                // The client sees a connection that stays open and says nothing more.
                download = nil
                context.flush()
                return
            }
            let count = Int(Swift.min(Int64(SandboxStreams.chunkSize), remaining, beforeDrop, beforeStall))
            let start = Int(current.next % 251)
            guard let slice = SandboxStreams.patternBuffer.getSlice(at: start, length: count) else { return }
            download = (current.plan, current.next + Int64(count), current.sent + Int64(count), current.keepAlive)
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(slice))), promise: nil)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { pumpDownload(context: context) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        download = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A request asking for an upgrade the WebSocket endpoints refuse is answered as HTTP.
        if let error = error as? NIOWebSocketUpgradeError, error == .unsupportedWebSocketTarget { return }
        context.close(promise: nil)
    }
}
