import NIOCore
import NIOPosix
import Synchronization

/// A raw TCP server on loopback that answers every request with bytes written by a script, not
/// by an HTTP library: how the tests play a server that breaks the protocol (a status line of
/// `HTTP/1.1 099`, lying lengths, endless bodies, slow drips, resets) and count what it saw.
///
/// ```swift
/// let server = try await ScriptedServer.start { _ in
///     [.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort"), .close]
/// }
/// // … request server.url("/") …
/// try await server.shutdown()
/// ```
public final class ScriptedServer: Sendable {
    /// One step of an answer.
    public enum Step: Sendable {
        /// Writes these bytes.
        case send([UInt8])
        /// Waits before the next step.
        case pause(Duration)
        /// Writes this chunk again and again, each once the last went out, until the client
        /// goes away: a body without end.
        case sendForever([UInt8])
        /// Writes this chunk `count` times, each once the last went out.
        case sendRepeatedly([UInt8], count: Int)
        /// Closes the connection.
        case close
        /// Resets the connection (RST rather than FIN).
        case reset

        /// Writes this text as UTF-8.
        public static func send(_ text: String) -> Step { .send(Array(text.utf8)) }
    }

    /// What the script is given: the request's head as text (request line and headers), and
    /// how many requests the server has seen before it.
    public struct Request: Sendable {
        public var head: String
        public var index: Int

        /// The request target of the request line (`/path?query`).
        public var target: String {
            let line = head.prefix { $0 != "\r" && $0 != "\n" }
            let parts = line.split(separator: " ")
            return parts.count >= 2 ? String(parts[1]) : ""
        }
    }

    public typealias Script = @Sendable (Request) -> [Step]

    /// The port the server listens on.
    public let port: Int
    private let channel: any Channel
    private let counters: Counters
    /// A thread of its own, so that a script writing without end never starves the event
    /// loops of the clients under test.
    private let group: MultiThreadedEventLoopGroup

    final class Counters: Sendable {
        let requests = Atomic(0)
        let closed = Atomic(0)
        let opened = Atomic(0)
    }

    private init(port: Int, channel: any Channel, counters: Counters, group: MultiThreadedEventLoopGroup) {
        self.port = port
        self.channel = channel
        self.counters = counters
        self.group = group
    }

    /// Starts a server whose answer to each request is `script`'s steps.
    ///
    /// - Throws: SwiftNIO's error when no loopback port can be bound.
    public static func start(_ script: @escaping Script) async throws -> ScriptedServer {
        let counters = Counters()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ScriptedConnection(script: script, counters: counters))
                    }
                }
                .bind(host: "127.0.0.1", port: 0)
                .get()
            guard let port = channel.localAddress?.port else {
                try await channel.close()
                throw ChannelError.unknownLocalAddress
            }
            return ScriptedServer(port: port, channel: channel, counters: counters, group: group)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// The absolute URL of a path on this server.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// How many request heads arrived.
    public var requestCount: Int { counters.requests.load(ordering: .acquiring) }
    /// How many connections were opened, and how many of them are closed by now.
    public var connectionCount: (opened: Int, closed: Int) {
        (counters.opened.load(ordering: .acquiring), counters.closed.load(ordering: .acquiring))
    }

    /// Stops accepting connections and closes the open ones.
    public func shutdown() async throws {
        try await channel.close()
        try await group.shutdownGracefully()
    }
}

/// One connection: reads request heads, answers each with the script's steps in order.
private final class ScriptedConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let script: ScriptedServer.Script
    private let counters: ScriptedServer.Counters
    private var received: [UInt8] = []
    private var answering = false

    init(script: @escaping ScriptedServer.Script, counters: ScriptedServer.Counters) {
        self.script = script
        self.counters = counters
    }

    func channelActive(context: ChannelHandlerContext) {
        counters.opened.add(1, ordering: .releasing)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        counters.closed.add(1, ordering: .releasing)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        // Request bodies are not read: the script answers once the head is complete.
        if received.count < 64 << 10, let bytes = buffer.readBytes(length: buffer.readableBytes) {
            received += bytes
        }
        answerIfComplete(context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func answerIfComplete(context: ChannelHandlerContext) {
        guard !answering, let end = headEnd() else { return }
        let head = String(decoding: received[..<end], as: UTF8.self)
        received.removeFirst(end + 4)
        answering = true
        let index = counters.requests.add(1, ordering: .acquiringAndReleasing).oldValue
        let steps = script(ScriptedServer.Request(head: head, index: index))
        run(steps[...], context: context)
    }

    private func headEnd() -> Int? {
        guard received.count >= 4 else { return nil }
        for index in 0...(received.count - 4)
        where received[index] == 13 && received[index + 1] == 10 && received[index + 2] == 13 && received[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func run(_ steps: ArraySlice<ScriptedServer.Step>, context: ChannelHandlerContext) {
        guard let step = steps.first else {
            answering = false
            answerIfComplete(context: context)
            return
        }
        let rest = steps.dropFirst()
        switch step {
        case .send(let bytes):
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes))).assumeIsolated().whenSuccess {
                self.run(rest, context: context)
            }
        case .pause(let duration):
            let (seconds, attoseconds) = duration.components
            context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
                self.run(rest, context: context)
            }
        case .sendForever(let chunk):
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: chunk))).assumeIsolated().whenSuccess {
                // Queued rather than called: a write the socket takes at once succeeds at once,
                // and calling on would recurse once per chunk until the stack ran out.
                context.eventLoop.assumeIsolated().execute { self.run(steps, context: context) }
            }
        case .sendRepeatedly(let chunk, let count):
            guard count > 0 else { return run(rest, context: context) }
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: chunk))).assumeIsolated().whenSuccess {
                context.eventLoop.assumeIsolated().execute {
                    self.run(ArraySlice([.sendRepeatedly(chunk, count: count - 1)]) + rest, context: context)
                }
            }
        case .close:
            context.close(promise: nil)
        case .reset:
            // SO_LINGER with a zero timeout makes close send RST instead of FIN.
            guard let options = context.channel as? any SocketOptionProvider else {
                context.close(promise: nil)
                return
            }
            options.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }
}
