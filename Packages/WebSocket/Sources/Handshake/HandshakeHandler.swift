import NIOCore
import NIOHTTP1
import NIOWebSocket

/// Reads the server's answer to the opening handshake. On a `101` it turns the pipeline into a
/// WebSocket's in the same event-loop turn — the frame decoder, ``FrameHandler``, the
/// async channel the ``WebSocket`` reads — before the HTTP decoder leaves and hands over the
/// bytes that followed the answer, so that a frame sent right behind the `101` is not lost.
final class HandshakeHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias Connection = NIOAsyncChannel<WebSocket.Message, OutboundCommand>

    /// The answer: its head, its body (a refusal's, cut at 1 MiB), and for a `101` the connection.
    struct Answer: Sendable {
        var head: HTTPResponseHead
        var body: ByteBuffer
        var upgraded: (connection: Connection, state: ConnectionState)?
    }

    private static let maximumBodySize = 1 << 20

    private let promise: EventLoopPromise<Answer>
    private let decoder: ByteToMessageHandler<ResponseHeadDecoder>
    private let encoder: HTTPRequestEncoder
    private let handshake: OpeningHandshake
    private let options: WebSocketOptions
    private var head: HTTPResponseHead?
    private var body = ByteBuffer()

    init(
        promise: EventLoopPromise<Answer>, decoder: ByteToMessageHandler<ResponseHeadDecoder>, encoder: HTTPRequestEncoder,
        handshake: OpeningHandshake, options: WebSocketOptions
    ) {
        self.promise = promise
        self.decoder = decoder
        self.encoder = encoder
        self.handshake = handshake
        self.options = options
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
        case .body(var chunk):
            if body.readableBytes + chunk.readableBytes <= Self.maximumBodySize { body.writeBuffer(&chunk) }
        case .end:
            guard let head else { return }
            do {
                let upgraded = head.status == .switchingProtocols ? try upgrade(context: context, head: head) : nil
                promise.succeed(Answer(head: head, body: body, upgraded: upgraded))
            } catch {
                promise.fail(error)
                context.close(promise: nil)
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        promise.fail(WebSocketError(.connectionLost, "the server closed the connection before answering the handshake"))
        context.fireChannelInactive()
    }

    /// The pipeline made a WebSocket's, its extension settings read from the `101`'s head (an
    /// answer the handshake's checks refuse later is closed then).
    private func upgrade(context: ChannelHandlerContext, head: HTTPResponseHead) throws -> (Connection, ConnectionState) {
        let extensions = head.headers[canonicalForm: "Sec-WebSocket-Extensions"].joined(separator: ",")
        let parameters = extensions.isEmpty ? nil : try? handshake.deflate?.accept(extensions)
        let state = ConnectionState()
        let settings = FrameHandler.Settings(
            maximumMessageSize: options.maximumMessageSize, pingInterval: options.pingInterval, pingTimeout: options.pingTimeout,
            closeTimeout: options.closeTimeout, bufferedMessages: max(options.bufferedMessages, 1))
        let pipeline = context.pipeline.syncOperations
        let frameDecoder = ByteToMessageHandler(WebSocketFrameDecoder(maxFrameSize: min(options.maximumMessageSize, Int(UInt32.max))))
        try pipeline.addHandler(frameDecoder, position: .after(decoder))
        try pipeline.addHandler(
            FrameHandler(settings: settings, state: state, codec: parameters.flatMap(DeflateCodec.init)), position: .after(frameDecoder))
        let high = max(options.bufferedMessages, 1)
        let connection = try Connection(
            wrappingChannelSynchronously: context.channel,
            configuration: .init(backPressureStrategy: .init(lowWatermark: max(high / 2, 1), highWatermark: high)))
        // The decoder last: leaving, it hands on the bytes behind the answer, and the frames in
        // them may be answered at once (a pong, a close), which the HTTP encoder must not see.
        pipeline.removeHandler(context: context, promise: nil)
        pipeline.removeHandler(encoder, promise: nil)
        // Messages in those bytes reach the async channel's buffer with no read completing
        // after them, and it hands over what it holds only when one does.
        let leftoversHandedOn = context.eventLoop.makePromise(of: Void.self)
        pipeline.removeHandler(decoder, promise: leftoversHandedOn)
        let channel = context.channel
        leftoversHandedOn.futureResult.whenSuccess { channel.pipeline.fireChannelReadComplete() }
        return (connection, state)
    }
}
