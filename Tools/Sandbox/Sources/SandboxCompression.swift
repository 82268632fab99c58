import CZlib
import Foundation

/// Compresses Sandbox responses with zlib directly, independently of the toolkit's own gzip
/// code, so tests of that code compare it against zlib rather than against itself.
enum SandboxCompression {
    enum Coding: String {
        case gzip, xGzip = "x-gzip", deflate, rawDeflate = "raw-deflate"

        var windowBits: Int32 {
            switch self {
            case .gzip, .xGzip: 15 + 16
            case .deflate: 15
            case .rawDeflate: -15
            }
        }

        /// The token sent in `Content-Encoding`: raw deflate travels as `deflate`, as servers send it.
        var headerToken: String { self == .rawDeflate ? "deflate" : rawValue }
    }

    /// `pieces` compressed as one stream; `nil` if zlib refuses.
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
}
