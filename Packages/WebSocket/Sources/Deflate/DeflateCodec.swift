import CZlib
import NIOCore

/// The compressor and decompressor of one connection's permessage-deflate: raw deflate, each
/// message ended by a sync flush whose last four bytes (`00 00 FF FF`) are left off the wire
/// (RFC 7692 §7.2). Used on the connection's event loop only.
final class DeflateCodec {
    private let parameters: PerMessageDeflate.Parameters
    private let deflater: UnsafeMutablePointer<z_stream>
    private let inflater: UnsafeMutablePointer<z_stream>
    private var scratch = [UInt8](repeating: 0, count: 64 << 10)
    private static let flushTail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// What went wrong while inflating.
    enum Failure: Error {
        case corrupt(String)
        case tooBig
    }

    /// - Returns: `nil` when zlib cannot start (no memory).
    init?(_ parameters: PerMessageDeflate.Parameters) {
        self.parameters = parameters
        deflater = .allocate(capacity: 1)
        deflater.initialize(to: z_stream())
        inflater = .allocate(capacity: 1)
        inflater.initialize(to: z_stream())
        // zlib takes no 8-bit window for raw deflate: 9 is what a peer asking for 8 can read.
        let clientBits = Int32(max(parameters.clientMaxWindowBits, 9))
        let deflating = deflateInit2_(
            deflater, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -clientBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        let inflating = inflateInit2_(inflater, -Int32(max(parameters.serverMaxWindowBits, 9)), ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard deflating == Z_OK, inflating == Z_OK else {
            if deflating == Z_OK { deflateEnd(deflater) }
            if inflating == Z_OK { inflateEnd(inflater) }
            deflater.deallocate()
            inflater.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(deflater)
        inflateEnd(inflater)
        deflater.deallocate()
        inflater.deallocate()
    }

    /// Whether a message of `size` bytes is worth compressing.
    func compresses(size: Int) -> Bool { size >= parameters.minimumSize }

    /// One whole message, compressed, without the flush's tail.
    func compress(_ message: ByteBuffer, allocator: ByteBufferAllocator) -> ByteBuffer {
        var output = allocator.buffer(capacity: message.readableBytes / 2 + 16)
        message.withUnsafeReadableBytes { input in
            deflater.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            deflater.pointee.avail_in = uInt(input.count)
            scratch.withUnsafeMutableBufferPointer { scratch in
                repeat {
                    deflater.pointee.next_out = scratch.baseAddress
                    deflater.pointee.avail_out = uInt(scratch.count)
                    _ = CZlib.deflate(deflater, Z_SYNC_FLUSH)
                    output.writeBytes(UnsafeBufferPointer(rebasing: scratch[..<(scratch.count - Int(deflater.pointee.avail_out))]))
                } while deflater.pointee.avail_out == 0
            }
        }
        if parameters.clientNoContextTakeover { deflateReset(deflater) }
        if output.readableBytesView.suffix(4).elementsEqual(Self.flushTail) { output.moveWriterIndex(to: output.writerIndex - 4) }
        return output
    }

    /// One whole compressed message, inflated.
    ///
    /// - Throws: ``Failure/tooBig`` as soon as the output passes `limit` bytes (a deflate bomb
    ///   stops there); ``Failure/corrupt(_:)`` for data that is not deflate.
    func decompress(_ message: ByteBuffer, limit: Int, allocator: ByteBufferAllocator) throws(Failure) -> ByteBuffer {
        var output = allocator.buffer(capacity: min(message.readableBytes * 2, limit) + 16)
        var input = message
        input.writeBytes(Self.flushTail)
        let failure: Failure? = input.withUnsafeReadableBytes { input in
            inflater.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            inflater.pointee.avail_in = uInt(input.count)
            return scratch.withUnsafeMutableBufferPointer { scratch -> Failure? in
                while true {
                    inflater.pointee.next_out = scratch.baseAddress
                    inflater.pointee.avail_out = uInt(scratch.count)
                    let code = CZlib.inflate(inflater, Z_SYNC_FLUSH)
                    let produced = scratch.count - Int(inflater.pointee.avail_out)
                    guard output.readableBytes + produced <= limit else { return .tooBig }
                    output.writeBytes(UnsafeBufferPointer(rebasing: scratch[..<produced]))
                    switch code {
                    case Z_OK, Z_BUF_ERROR:
                        if inflater.pointee.avail_in == 0, inflater.pointee.avail_out > 0 { return nil }
                        if code == Z_BUF_ERROR { return nil }
                    case Z_STREAM_END:
                        // A final block: what follows starts a new stream.
                        inflateReset(inflater)
                        if inflater.pointee.avail_in == 0 { return nil }
                    default:
                        return .corrupt(inflater.pointee.msg.map { String(cString: $0) } ?? "invalid deflate data")
                    }
                }
            }
        }
        if let failure { throw failure }
        if parameters.serverNoContextTakeover { inflateReset(inflater) }
        return output
    }
}
