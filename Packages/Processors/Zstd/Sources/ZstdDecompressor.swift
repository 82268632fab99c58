import CZstd
import Foundation
import JewzHTTPCore

/// Decompresses a Zstandard stream (RFC 8878) fed in pieces, as a body arrives, within
/// ``JewzHTTPCore/DecompressionLimits``. Frames may follow one another; a frame whose window is
/// larger than 8 MiB is refused, as RFC 9659 lets an HTTP client do, so that one response
/// cannot make the decoder hold more.
///
/// ```swift
/// let decompressor = ZstdDecompressor()
/// var output = Data()
/// try chunk.withUnsafeBytes { try decompressor.decode($0, into: &output) }
/// try decompressor.finish(into: &output)
/// ```
public final class ZstdDecompressor: HTTPContentDecoding {
    private static let scratchSize = 1 << 17
    /// 2^23 bytes: the largest window RFC 9659 has HTTP senders use.
    private static let windowLogLimit: Int32 = 23

    private var context: OpaquePointer?
    private var budget: DecompressionBudget
    /// Whether the last frame read is whole (nothing read yet counts as whole).
    private var frameEnded = true
    private var scratch: [UInt8] = []

    public init(limits: DecompressionLimits = DecompressionLimits()) {
        budget = DecompressionBudget(limits)
    }

    deinit {
        if let context { ZSTD_freeDCtx(context) }
    }

    /// Decodes the next piece of compressed input, appending the output.
    ///
    /// - Throws: ``JewzHTTPCore/ContentDecodingError``: corrupt data (or a window past 8 MiB),
    ///   a limit passed.
    public func decode(_ input: UnsafeRawBufferPointer, into output: inout Data) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        let context = try started()
        budget.consume(input.count)
        if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: Self.scratchSize) }
        var source = ZSTD_inBuffer(src: base, size: input.count, pos: 0)
        try scratch.withUnsafeMutableBufferPointer { scratch in
            repeat {
                var target = ZSTD_outBuffer(dst: scratch.baseAddress, size: scratch.count, pos: 0)
                let hint = ZSTD_decompressStream(context, &target, &source)
                if ZSTD_isError(hint) != 0 {
                    throw ContentDecodingError(.corrupt, coding: "zstd", detail: String(cString: ZSTD_getErrorName(hint)))
                }
                if target.pos > 0 {
                    output.append(UnsafeBufferPointer(rebasing: scratch[..<target.pos]))
                    try budget.produce(target.pos, coding: "zstd")
                }
                frameEnded = hint == 0
                // A full output buffer may leave decoded bytes inside: ask again even without input.
                if source.pos == source.size, target.pos < target.size { return }
            } while true
        }
    }

    /// Ends the input.
    ///
    /// - Throws: ``JewzHTTPCore/ContentDecodingError/Code/truncated`` when a frame is not whole.
    public func finish(into output: inout Data) throws {
        guard frameEnded else { throw ContentDecodingError(.truncated, coding: "zstd") }
    }

    private func started() throws -> OpaquePointer {
        if let context { return context }
        guard let made = ZSTD_createDCtx() else {
            throw ContentDecodingError(.library, coding: "zstd", detail: "no memory for a decoder")
        }
        ZSTD_DCtx_setParameter(made, ZSTD_d_windowLogMax, Self.windowLogLimit)
        context = made
        return made
    }
}
