import NIOCore
import NIOWebSocket

/// A client's frame on the wire (RFC 6455 §5.2): the header, then the payload masked with a
/// fresh key (§5.3) in place, eight bytes at a time. Written by ``FrameHandler`` straight to the
/// socket, because SwiftNIO's encoder masks a byte at a time into a copy (the benchmark notes
/// say what that cost).
enum ClientFrame {
    /// The header and the masked payload of a frame that ends its message; small frames come
    /// as one buffer (`payload` `nil`).
    static func bytes(
        _ opcode: WebSocketOpcode, _ payload: consuming ByteBuffer, compressed: Bool, allocator: ByteBufferAllocator
    ) -> (header: ByteBuffer, payload: ByteBuffer?) {
        var payload = payload
        let key = WebSocketMaskingKey.random()
        var header = allocator.buffer(capacity: 14 + (payload.readableBytes <= 1024 ? payload.readableBytes : 0))
        header.writeInteger(0x80 | (compressed ? 0x40 : 0) | UInt8(webSocketOpcode: opcode))
        switch payload.readableBytes {
        case ..<126:
            header.writeInteger(0x80 | UInt8(payload.readableBytes))
        case ...Int(UInt16.max):
            header.writeInteger(UInt8(0x80 | 126))
            header.writeInteger(UInt16(payload.readableBytes))
        default:
            header.writeInteger(UInt8(0x80 | 127))
            header.writeInteger(UInt64(payload.readableBytes))
        }
        header.writeBytes(key)
        mask(&payload, with: key)
        guard payload.readableBytes > 1024 else {
            header.writeBuffer(&payload)
            return (header, nil)
        }
        return (header, payload)
    }

    /// XORs `payload`'s readable bytes with `key` repeated.
    static func mask(_ payload: inout ByteBuffer, with key: WebSocketMaskingKey) {
        let keyBytes = Array(key)
        let wideKey = (keyBytes + keyBytes).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        payload.withUnsafeMutableReadableBytes { bytes in
            let count = bytes.count
            var offset = 0
            while offset + 8 <= count {
                let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ wideKey
                bytes.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            while offset < count {
                bytes[offset] ^= keyBytes[offset & 3]
                offset += 1
            }
        }
    }
}
