import NIOCore
import NIOWebSocket

/// Joins a message's frames (RFC 6455 §5.4) and checks what only a whole message shows: its
/// size, a text's UTF-8. A compressed message's text is checked once inflated.
struct MessageAssembler {
    /// A message whose frames are arriving.
    private struct Partial {
        var isText: Bool
        var isCompressed: Bool
        var data: ByteBuffer
        var validator = UTF8Validator()
    }

    /// Why a frame could not be taken; the connection fails with the code it maps to.
    enum Failure: Error {
        case protocolViolation(String)
        case invalidUTF8
        case tooBig
    }

    let maximumSize: Int
    private var partial: Partial?

    init(maximumSize: Int) {
        self.maximumSize = maximumSize
    }

    /// A data frame (text, binary or continuation); returns the message when the frame ends one:
    /// its bytes, whether it is text, whether they are compressed.
    mutating func take(_ frame: WebSocketFrame) throws(Failure) -> (data: ByteBuffer, isText: Bool, isCompressed: Bool)? {
        var message: Partial
        switch frame.opcode {
        case .continuation:
            guard let current = partial else { throw .protocolViolation("a continuation frame came with no message to continue") }
            guard !frame.rsv1 else { throw .protocolViolation("a continuation frame has RSV1 set") }
            message = current
            partial = nil
        default:
            guard partial == nil else { throw .protocolViolation("a new message began before the last one ended") }
            message = Partial(isText: frame.opcode == .text, isCompressed: frame.rsv1, data: ByteBuffer())
        }
        var payload = frame.unmaskedData
        guard message.data.readableBytes + payload.readableBytes <= maximumSize else { throw .tooBig }
        if message.isText, !message.isCompressed {
            let valid = payload.withUnsafeReadableBytes { message.validator.feed($0) }
            guard valid else { throw .invalidUTF8 }
        }
        if message.data.readableBytes == 0, frame.fin {
            message.data = payload
        } else {
            message.data.writeBuffer(&payload)
        }
        guard frame.fin else {
            partial = message
            return nil
        }
        if message.isText, !message.isCompressed, !message.validator.isComplete { throw .invalidUTF8 }
        return (message.data, message.isText, message.isCompressed)
    }
}
