import CZlib
import Foundation
import JewzHTTPCore

/// Whole-buffer compression and decompression, for callers who need only that.
///
/// ```swift
/// let packed = try Gzip.compress(Data(repeating: 65, count: 10_000))
/// let unpacked = try Gzip.decompress(packed)      // gzip, zlib or raw deflate
/// ```
public enum Gzip {
    /// Compresses `data` as a gzip member (or zlib / raw deflate).
    ///
    /// - Parameters:
    ///   - data: the bytes to compress.
    ///   - level: 0 (store) to 9 (smallest); -1 is zlib's default (6).
    ///   - format: the framing: gzip (the default), zlib or raw deflate.
    /// - Throws: ``GzipError/zlib(code:)`` when zlib refuses the parameters.
    public static func compress(_ data: Data, level: Int32 = -1, format: GzipDecompressor.Format = .gzip) throws -> Data {
        var stream = z_stream()
        let windowBits: Int32 = format == .automatic ? GzipDecompressor.Format.gzip.windowBits : format.windowBits
        let start = deflateInit2_(&stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard start == Z_OK else { throw GzipError.zlib(code: start) }
        defer { deflateEnd(&stream) }
        // deflateBound covers zlib framing; a gzip header and trailer add at most 18 bytes more.
        let capacity = Int(deflateBound(&stream, uLong(data.count))) + 32
        var output = Data(count: capacity)
        let code: Int32 = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { buffer in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = buffer.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(buffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard code == Z_STREAM_END else { throw GzipError.zlib(code: code) }
        output.count = Int(stream.total_out)
        return output
    }

    /// Decompresses a whole gzip, zlib or raw deflate buffer.
    ///
    /// - Throws: ``GzipError``: corrupt, truncated or trailing data, or past `limits`.
    public static func decompress(_ data: Data, limits: GzipLimits = GzipLimits()) throws -> Data {
        let decompressor = GzipDecompressor(limits: limits)
        var output = Data()
        output.reserveCapacity(expectedSize(of: data, limit: limits.maximumDecodedSize))
        try data.withUnsafeBytes { try decompressor.decode($0, into: &output) }
        try decompressor.finish(into: &output)
        return output
    }

    /// A capacity guess: a gzip member's trailer holds its length modulo 2³² (ISIZE), which
    /// spares the output buffer its regrowths; other formats get four times their size.
    private static func expectedSize(of data: Data, limit: Int) -> Int {
        guard data.count >= 18, data.starts(with: [0x1F, 0x8B]) else { return min(data.count * 4, limit) }
        let trailer = data.suffix(4)
        let size = trailer.reversed().reduce(0) { $0 << 8 | Int($1) }
        return min(max(size, data.count), limit, 1 << 30)
    }
}
