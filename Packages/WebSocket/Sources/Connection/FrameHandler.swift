import Foundation
import NIOCore
import NIOFoundationCompat
import NIOWebSocket

/// The client's side of an open connection (RFC 6455 §5–7), on its event loop: checks every
/// frame from the server, joins and inflates messages, answers pings, runs the closing
/// handshake and the keep-alive pings, and turns what the ``WebSocket`` sends into masked
/// frames. A violation fails the connection with the close code the RFC names and a
/// ``WebSocketError`` that the message sequence throws.
final class FrameHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocket.Message
    typealias OutboundIn = OutboundCommand
    typealias OutboundOut = ByteBuffer

    /// What the handler needs from the connection's options.
    struct Settings {
        var maximumMessageSize: Int
        var pingInterval: Duration?
        var pingTimeout: Duration
        var closeTimeout: Duration
        var bufferedMessages: Int
    }

    private let settings: Settings
    private let state: ConnectionState
    private let codec: DeflateCodec?
    private var assembler: MessageAssembler
    private var closeSent = false
    private var closeReceived = false
    private var failed = false
    private var messagesAfterClose = 0
    private var awaitingPong = false
    private var keepAlive: Scheduled<Void>?
    private var pongDeadline: Scheduled<Void>?
    private var closeDeadline: Scheduled<Void>?

    init(settings: Settings, state: ConnectionState, codec: DeflateCodec?) {
        self.settings = settings
        self.state = state
        self.codec = codec
        assembler = MessageAssembler(maximumSize: settings.maximumMessageSize)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if let interval = settings.pingInterval { scheduleKeepAlive(every: interval, context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimers()
    }

    private func cancelTimers() {
        keepAlive?.cancel()
        pongDeadline?.cancel()
        closeDeadline?.cancel()
    }

    // MARK: Inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closeReceived, !failed else { return }
        let frame = unwrapInboundIn(data)
        if frame.maskKey != nil { return fail(.protocolError, .protocolViolation, "it masked a frame", context: context) }
        if frame.rsv2 || frame.rsv3 { return fail(.protocolError, .protocolViolation, "it set RSV2 or RSV3, which no extension agreed uses", context: context) }
        if frame.rsv1, codec == nil || frame.opcode.isControlOpcode {
            return fail(.protocolError, .protocolViolation, "it set RSV1 on a frame that cannot be compressed", context: context)
        }
        switch frame.opcode {
        case .text, .binary, .continuation:
            receiveData(frame, context: context)
        case .ping:
            guard !closeSent else { return }
            writeFrame(.pong, frame.unmaskedData, context: context)
        case .pong:
            awaitingPong = false
            pongDeadline?.cancel()
            state.pongs.pongReceived(Data(frame.unmaskedData.readableBytesView))
        case .connectionClose:
            receiveClose(frame, context: context)
        default:
            fail(.protocolError, .protocolViolation, "it sent a frame of the reserved opcode \(frame.opcode)", context: context)
        }
    }

    private func receiveData(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        let whole: (data: ByteBuffer, isText: Bool, isCompressed: Bool)?
        do {
            whole = try assembler.take(frame)
        } catch {
            return fail(error, context: context)
        }
        guard let whole else { return }
        // After a close of ours the server may still send what it had under way (an echo of
        // the last message): the reader gets up to a buffer's worth of it, the rest is dropped,
        // since the socket is read then whatever the reader's pace.
        if closeSent {
            guard messagesAfterClose < settings.bufferedMessages else { return }
            messagesAfterClose += 1
        }
        var data = whole.data
        if whole.isCompressed, let codec {
            do {
                data = try codec.decompress(data, limit: settings.maximumMessageSize, allocator: context.channel.allocator)
            } catch .tooBig {
                return fail(.tooBig, context: context)
            } catch {
                return fail(.protocolError, .protocolViolation, "a compressed message is not deflate data", context: context)
            }
        }
        let message: WebSocket.Message
        if whole.isText {
            guard let text = data.withUnsafeReadableBytes({ String(validating: $0, as: UTF8.self) }) else {
                return fail(.invalidUTF8, context: context)
            }
            message = .text(text)
        } else {
            // A large message's Data shares the buffer's memory rather than copying it.
            message = .binary(Data(buffer: data, byteTransferStrategy: .automatic))
        }
        context.fireChannelRead(wrapInboundOut(message))
    }

    private func receiveClose(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        var payload = frame.unmaskedData
        let code: WebSocket.CloseCode
        var reason = ""
        switch payload.readableBytes {
        case 0:
            code = .noStatusReceived
        case 1:
            return fail(.protocolError, .protocolViolation, "its close frame holds one byte, not a code", context: context)
        default:
            guard let raw = payload.readInteger(as: UInt16.self), WebSocket.CloseCode(rawValue: raw).isSendable else {
                return fail(.protocolError, .protocolViolation, "its close frame has a code no endpoint may send", context: context)
            }
            code = WebSocket.CloseCode(rawValue: raw)
            guard let text = payload.withUnsafeReadableBytes({ String(validating: $0, as: UTF8.self) }) else {
                return fail(.invalidUTF8, context: context)
            }
            reason = text
        }
        closeReceived = true
        state.record(WebSocket.Closure(code: code, reason: reason, wasClean: true))
        guard !closeSent else { return context.close(promise: nil) }
        closeSent = true
        // The server's code echoed; none when it sent none.
        let echo = code == .noStatusReceived ? ByteBuffer() : Self.closePayload(code, reason: "", allocator: context.channel.allocator)
        writeFrame(.connectionClose, echo, context: context).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Closing, the socket is read whatever the reader's pace, to reach the server's close frame.
        if closeSent, !closeReceived { context.read() }
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength:
            fail(.tooBig, context: context)
        case NIOWebSocketError.fragmentedControlFrame:
            fail(.protocolError, .protocolViolation, "it fragmented a control frame", context: context)
        case NIOWebSocketError.multiByteControlFrameLength:
            fail(.protocolError, .protocolViolation, "it sent a control frame longer than 125 bytes", context: context)
        default:
            drop(WebSocketError(.connectionLost, String(describing: error)), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        if state.closure == nil { drop(WebSocketError(.connectionLost, ""), context: context) }
        context.fireChannelInactive()
    }

    // MARK: Outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let command = unwrapOutboundIn(data)
        guard !closeSent else {
            promise?.fail(WebSocketError(.closed, ""))
            return
        }
        switch command {
        case .message(let message):
            var payload: ByteBuffer
            let opcode: WebSocketOpcode
            switch message {
            case .text(let text):
                payload = context.channel.allocator.buffer(string: text)
                opcode = .text
            case .binary(let data):
                payload = context.channel.allocator.buffer(bytes: data)
                opcode = .binary
            }
            var compressed = false
            if let codec, codec.compresses(size: payload.readableBytes) {
                payload = codec.compress(payload, allocator: context.channel.allocator)
                compressed = true
            }
            // Handed over, not shared: the frame masks it in place.
            writeFrame(opcode, consume payload, compressed: compressed, flush: false, context: context, promise: promise)
        case .ping(let payload):
            writeFrame(.ping, payload, flush: false, context: context, promise: promise)
        case .close(let code, let reason):
            sendClose(code, reason: reason, context: context, promise: promise)
        }
    }

    /// Sends a close frame and waits ``Settings/closeTimeout`` for the server's before dropping
    /// the connection.
    private func sendClose(_ code: WebSocket.CloseCode, reason: String, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
        closeSent = true
        let payload = Self.closePayload(code, reason: reason, allocator: context.channel.allocator)
        writeFrame(.connectionClose, payload, context: context, promise: promise)
        context.read()
        closeDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(settings.closeTimeout)) {
            context.close(promise: nil)
        }
    }

    /// Writes a frame of ours that ends its message, masked (``ClientFrame``), flushed unless
    /// more writes follow in this turn.
    @discardableResult
    private func writeFrame(
        _ opcode: WebSocketOpcode, _ payload: consuming ByteBuffer, compressed: Bool = false, flush: Bool = true, context: ChannelHandlerContext,
        promise: EventLoopPromise<Void>? = nil
    ) -> EventLoopFuture<Void> {
        let written = promise ?? context.eventLoop.makePromise()
        let (header, body) = ClientFrame.bytes(opcode, consume payload, compressed: compressed, allocator: context.channel.allocator)
        if let body {
            context.write(wrapOutboundOut(header), promise: nil)
            context.write(wrapOutboundOut(body), promise: written)
        } else {
            context.write(wrapOutboundOut(header), promise: written)
        }
        if flush { context.flush() }
        return written.futureResult
    }

    /// A close frame's payload: the code, then the reason cut to fit 125 bytes on a character's edge.
    private static func closePayload(_ code: WebSocket.CloseCode, reason: String, allocator: ByteBufferAllocator) -> ByteBuffer {
        var payload = allocator.buffer(capacity: 125)
        payload.writeInteger(code.rawValue)
        var length = 0
        payload.writeString(String(reason.prefix { character in
            length += character.utf8.count
            return length <= 123
        }))
        return payload
    }

    // MARK: Failing

    private func fail(_ failure: MessageAssembler.Failure, context: ChannelHandlerContext) {
        switch failure {
        case .protocolViolation(let why): fail(.protocolError, .protocolViolation, why, context: context)
        case .invalidUTF8: fail(.invalidPayload, .invalidUTF8, "", context: context)
        case .tooBig: fail(.messageTooBig, .messageTooBig, String(settings.maximumMessageSize), context: context)
        }
    }

    /// Ends a connection that is lost or dead without a closing handshake: the error goes to the
    /// reader, and the connection closes without a close frame.
    private func drop(_ error: WebSocketError, context: ChannelHandlerContext) {
        failed = true
        state.record(WebSocket.Closure(code: .abnormalClosure, reason: "", wasClean: false))
        context.fireErrorCaught(error)
        context.close(promise: nil)
    }

    /// Fails the connection (RFC 6455 §7.1.7): the error goes to the reader, a close frame with
    /// `code` to the server, then the connection closes.
    private func fail(_ code: WebSocket.CloseCode, _ error: WebSocketError.Code, _ detail: String, context: ChannelHandlerContext) {
        guard !failed else { return }
        failed = true
        state.record(WebSocket.Closure(code: code, reason: "", wasClean: false))
        context.fireErrorCaught(WebSocketError(error, detail))
        guard !closeSent else { return context.close(promise: nil) }
        closeSent = true
        writeFrame(.connectionClose, Self.closePayload(code, reason: "", allocator: context.channel.allocator), context: context)
            .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    // MARK: Keep-alive

    private func scheduleKeepAlive(every interval: Duration, context: ChannelHandlerContext) {
        let eventLoop = context.eventLoop.assumeIsolated()
        keepAlive = eventLoop.scheduleTask(in: TimeAmount(interval)) { [self] in
            guard context.channel.isActive, !closeSent else { return }
            // The deadline runs from the first ping left unanswered.
            if !awaitingPong {
                awaitingPong = true
                pongDeadline = eventLoop.scheduleTask(in: TimeAmount(settings.pingTimeout)) { [self] in
                    guard awaitingPong, !failed, !closeReceived else { return }
                    drop(WebSocketError(.pingTimedOut, "\(settings.pingTimeout)"), context: context)
                }
            }
            writeFrame(.ping, context.channel.allocator.buffer(string: "keep-alive"), context: context)
            scheduleKeepAlive(every: interval, context: context)
        }
    }
}
