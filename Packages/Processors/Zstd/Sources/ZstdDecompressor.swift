import CZstd
import Foundation
import JewzHTTPCore
import JewzZstdLibrary

/// Decompresses a Zstandard stream (RFC 8878) fed in pieces, as a body arrives, within
/// ``/JewzHTTPCore/DecompressionLimits``. Frames may follow one another; a frame whose window is
/// larger than 8 MiB is refused, as RFC 9659 lets an HTTP client do, so that one response
/// cannot make the decoder hold more. libzstd is loaded when the process first needs it.
///
/// ```swift
/// let chunk = Data()
/// let decompressor = ZstdDecompressor()
/// var output = Data()
/// try chunk.withUnsafeBytes { try decompressor.decode($0, into: &output) }
/// try decompressor.finish(into: &output)
/// ```
public final class ZstdDecompressor: HTTPContentDecoding {
    private static let scratchSize = 1 << 17
    /// 2^23 bytes: the largest window RFC 9659 has HTTP senders use.
    private static let windowLogLimit: Int32 = 23

    private let library: Result<ZstdLibrary, ZstdLibraryUnavailable>
    /// Made on the first byte: a response may name a coding it never sends a byte for.
    private var context: OpaquePointer?
    private var budget: DecompressionBudget
    /// Whether the last frame read is whole (nothing read yet counts as whole).
    private var frameEnded = true
    private var scratch: [UInt8] = []

    /// A decompressor over the system's libzstd.
    public convenience init(limits: DecompressionLimits = DecompressionLimits()) {
        self.init(limits: limits, library: ZstdLibrary.system)
    }

    init(limits: DecompressionLimits, library: Result<ZstdLibrary, ZstdLibraryUnavailable>) {
        budget = DecompressionBudget(limits)
        self.library = library
    }

    deinit {
        if let context, case .success(let library) = library { _ = library.freeDecompressionContext(context) }
    }

    /// Decodes the next piece of compressed input, appending the output.
    ///
    /// - Throws: ``/JewzHTTPCore/ContentDecodingError``: corrupt data (or a window past 8 MiB),
    ///   a limit passed, libzstd not installed (``/JewzHTTPCore/ContentDecodingError/Code/unavailable``).
    public func decode(_ input: UnsafeRawBufferPointer, into output: inout Data) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        let (library, context) = try started()
        budget.consume(input.count)
        if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: Self.scratchSize) }
        var source = JewzZstdInput(source: base, size: input.count, position: 0)
        try scratch.withUnsafeMutableBufferPointer { scratch in
            repeat {
                var target = JewzZstdOutput(destination: scratch.baseAddress, size: scratch.count, position: 0)
                let hint = library.decompressStream(context, &target, &source)
                if let failure = library.failure(of: hint) {
                    throw ContentDecodingError(.corrupt, coding: "zstd", detail: failure)
                }
                if target.position > 0 {
                    output.append(UnsafeBufferPointer(rebasing: scratch[..<target.position]))
                    try budget.produce(target.position, coding: "zstd")
                }
                frameEnded = hint == 0
                // A full output buffer may leave decoded bytes inside: ask again even without input.
                if source.position == source.size, target.position < target.size { return }
            } while true
        }
    }

    /// Ends the input.
    ///
    /// - Throws: ``/JewzHTTPCore/ContentDecodingError/Code/truncated`` when a frame is not whole.
    public func finish(into output: inout Data) throws {
        guard frameEnded else { throw ContentDecodingError(.truncated, coding: "zstd") }
    }

    private func started() throws -> (ZstdLibrary, OpaquePointer) {
        let library: ZstdLibrary
        switch self.library {
        case .success(let loaded): library = loaded
        case .failure(let unavailable):
            throw ContentDecodingError(.unavailable, coding: "zstd", detail: unavailable.description)
        }
        if let context { return (library, context) }
        guard let made = library.createDecompressionContext() else {
            throw ContentDecodingError(.library, coding: "zstd", detail: "no memory for a decoder")
        }
        _ = library.setDecompressionParameter(made, Int32(JewzZstdDecompressionWindowLogMax), Self.windowLogLimit)
        context = made
        return (library, made)
    }
}
