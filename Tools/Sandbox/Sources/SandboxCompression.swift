import CBrotli
import CZlib
import CZstd
import Foundation
import JewzZstdLibrary

/// Compresses Sandbox responses with zlib directly, independently of the toolkit's own gzip
/// code, so tests of that code compare it against zlib rather than against itself.
enum SandboxCompression {
    enum Coding: String {
        case gzip, xGzip = "x-gzip", deflate, rawDeflate = "raw-deflate", brotli = "br", zstd

        var windowBits: Int32 {
            switch self {
            case .gzip, .xGzip: 15 + 16
            case .deflate: 15
            case .rawDeflate: -15
            case .brotli, .zstd: 0
            }
        }

        /// The token sent in `Content-Encoding`: raw deflate travels as `deflate`, as servers send it.
        var headerToken: String { self == .rawDeflate ? "deflate" : rawValue }
    }

    /// A gzip member of `mebibytes` MiB of zeros, built in milliseconds: after a full flush
    /// deflate starts afresh, so every further MiB compresses to the same bytes, and only the
    /// trailer (CRC-32 and length of the whole) has to be computed.
    static func zeroBomb(mebibytes: Int) -> Data? {
        let chunk = Data(count: 1 << 20)
        var stream = z_stream()
        guard deflateInit2_(&stream, 9, Z_DEFLATED, Coding.gzip.windowBits, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { deflateEnd(&stream) }
        func feed(_ input: Data, _ flush: Int32) -> Data {
            var output = Data()
            var scratch = [UInt8](repeating: 0, count: 1 << 16)
            input.withUnsafeBytes { bytes in
                stream.next_in = UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(bytes.count)
                repeat {
                    scratch.withUnsafeMutableBufferPointer { buffer in
                        stream.next_out = buffer.baseAddress
                        stream.avail_out = uInt(buffer.count)
                        _ = deflate(&stream, flush)
                    }
                    output.append(contentsOf: scratch[..<(scratch.count - Int(stream.avail_out))])
                } while stream.avail_out == 0
            }
            return output
        }
        let head = feed(chunk, Z_FULL_FLUSH)      // gzip header + first MiB
        let unit = feed(chunk, Z_FULL_FLUSH)      // any further MiB
        let ending = feed(Data(), Z_FINISH).dropLast(8)  // final empty block, without this stream's trailer
        var body = head
        for _ in 1..<mebibytes { body.append(unit) }
        body.append(ending)
        let chunkCRC = chunk.withUnsafeBytes { crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count)) }
        var total: uLong = 0
        for _ in 0..<mebibytes { total = crc32_combine(total, chunkCRC, off_t(chunk.count)) }
        let length = UInt32(truncatingIfNeeded: mebibytes << 20)
        for value in [UInt32(truncatingIfNeeded: total), length] {
            withUnsafeBytes(of: value.littleEndian) { body.append(contentsOf: $0) }
        }
        return body
    }

    /// `data` compressed in `coding`; for zstd, with a window of 2^`zstdWindowLog` bytes when
    /// given (a frame a client may refuse). `nil` if the library refuses.
    static func compress(_ data: Data, as coding: Coding, zstdWindowLog: Int32? = nil) -> Data? {
        switch coding {
        case .brotli: brotli(data)
        case .zstd: zstd(data, windowLog: zstdWindowLog)
        default: compress([data], as: coding)
        }
    }

    private static func brotli(_ data: Data) -> Data? {
        var size = BrotliEncoderMaxCompressedSize(data.count)
        var output = [UInt8](repeating: 0, count: max(size, 64))
        size = output.count
        let done = data.withUnsafeBytes { input in
            BrotliEncoderCompress(
                5, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, input.count, input.bindMemory(to: UInt8.self).baseAddress,
                &size, &output)
        }
        return done == BROTLI_TRUE ? Data(output.prefix(size)) : nil
    }

    /// `nil` also when libzstd is not installed: the Sandbox then answers zstd requests as the
    /// library refusing.
    private static func zstd(_ data: Data, windowLog: Int32?) -> Data? {
        guard case .success(let library) = ZstdLibrary.system,
              let context = library.createCompressionContext() else { return nil }
        defer { _ = library.freeCompressionContext(context) }
        _ = library.setCompressionParameter(context, Int32(JewzZstdCompressionLevel), 3)
        if let windowLog { _ = library.setCompressionParameter(context, Int32(JewzZstdWindowLog), windowLog) }
        var output = [UInt8](repeating: 0, count: library.compressBound(data.count))
        let size = output.withUnsafeMutableBytes { output in
            data.withUnsafeBytes { input in
                library.compress(context, output.baseAddress, output.count, input.baseAddress, input.count)
            }
        }
        return library.failure(of: size) == nil ? Data(output.prefix(size)) : nil
    }

    /// `pieces` compressed as one zlib stream; `nil` if zlib refuses.
    static func compress(_ pieces: some Sequence<Data>, as coding: Coding) -> Data? {
        var stream = z_stream()
        guard deflateInit2_(&stream, 6, Z_DEFLATED, coding.windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { deflateEnd(&stream) }
        var output = Data()
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        var iterator = pieces.makeIterator()
        var current = iterator.next()
        while true {
            let isLast = current == nil
            let piece = current ?? Data()
            let failed: Bool = piece.withUnsafeBytes { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                repeat {
                    let code: Int32 = scratch.withUnsafeMutableBufferPointer { buffer in
                        stream.next_out = buffer.baseAddress
                        stream.avail_out = uInt(buffer.count)
                        return deflate(&stream, isLast ? Z_FINISH : Z_NO_FLUSH)
                    }
                    if code == Z_STREAM_ERROR { return true }
                    output.append(contentsOf: scratch[..<(scratch.count - Int(stream.avail_out))])
                } while stream.avail_out == 0
                return false
            }
            if failed { return nil }
            if isLast { return output }
            current = iterator.next()
        }
    }

    /// A permessage-deflate message inflated (RFC 7692 §7.2.2: raw deflate, the sync flush's
    /// `00 00 FF FF` put back), with a fresh window: the Sandbox agrees to
    /// `client_no_context_takeover`. `nil` for data that is not deflate or passes `limit`.
    static func inflateMessage(_ compressed: [UInt8], limit: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = compressed + [0x00, 0x00, 0xFF, 0xFF]
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let inflated: Bool = input.withUnsafeMutableBufferPointer { input in
            stream.next_in = input.baseAddress
            stream.avail_in = uInt(input.count)
            while true {
                let (code, produced) = chunk.withUnsafeMutableBufferPointer { chunk -> (Int32, Int) in
                    stream.next_out = chunk.baseAddress
                    stream.avail_out = uInt(chunk.count)
                    let code = inflate(&stream, Z_SYNC_FLUSH)
                    return (code, chunk.count - Int(stream.avail_out))
                }
                output += chunk[..<produced]
                guard output.count <= limit, code == Z_OK || code == Z_BUF_ERROR || code == Z_STREAM_END else { return false }
                if stream.avail_in == 0 || code != Z_OK { return true }
            }
        }
        return inflated ? output : nil
    }
}
