import CBrotli
import Foundation
import JewzHTTPCore

/// Decompresses a brotli stream (RFC 7932) fed in pieces, as a body arrives, within
/// ``/JewzHTTPCore/DecompressionLimits``.
///
/// ```swift
/// let chunk = Data()
/// let decompressor = BrotliDecompressor()
/// var output = Data()
/// try chunk.withUnsafeBytes { try decompressor.decode($0, into: &output) }
/// try decompressor.finish(into: &output)
/// ```
public final class BrotliDecompressor: HTTPContentDecoding {
    private static let scratchSize = 1 << 17

    /// Made on the first byte: a response may name a coding it never sends a byte for.
    private var state: OpaquePointer?
    private var budget: DecompressionBudget
    private var ended = false
    private var scratch: [UInt8] = []

    /// A decompressor within `limits`.
    public init(limits: DecompressionLimits = DecompressionLimits()) {
        budget = DecompressionBudget(limits)
    }

    deinit {
        if let state { BrotliDecoderDestroyInstance(state) }
    }

    /// Decodes the next piece of compressed input, appending the output.
    ///
    /// - Throws: ``/JewzHTTPCore/ContentDecodingError``: corrupt data, bytes after the end, a
    ///   limit passed.
    public func decode(_ input: UnsafeRawBufferPointer, into output: inout Data) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        guard !ended else { throw ContentDecodingError(.trailingData, coding: "br") }
        let state = try started()
        budget.consume(input.count)
        if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: Self.scratchSize) }
        var availableIn = input.count
        var nextIn: UnsafePointer<UInt8>? = base.assumingMemoryBound(to: UInt8.self)
        try scratch.withUnsafeMutableBufferPointer { scratch in
            while true {
                var availableOut = scratch.count
                var nextOut = scratch.baseAddress
                let result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                let produced = scratch.count - availableOut
                if produced > 0 {
                    output.append(UnsafeBufferPointer(rebasing: scratch[..<produced]))
                    try budget.produce(produced, coding: "br")
                }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    ended = true
                    guard availableIn == 0 else { throw ContentDecodingError(.trailingData, coding: "br") }
                    return
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    return
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
                    continue
                default:
                    let message = String(cString: BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state)))
                    throw ContentDecodingError(.corrupt, coding: "br", detail: message)
                }
            }
        }
    }

    /// Ends the input.
    ///
    /// - Throws: ``/JewzHTTPCore/ContentDecodingError/Code/truncated`` when the stream did not
    ///   reach its end.
    public func finish(into output: inout Data) throws {
        guard state != nil, !ended else { return }
        throw ContentDecodingError(.truncated, coding: "br")
    }

    private func started() throws -> OpaquePointer {
        if let state { return state }
        guard let made = BrotliDecoderCreateInstance(nil, nil, nil) else {
            throw ContentDecodingError(.library, coding: "br", detail: "no memory for a decoder")
        }
        state = made
        return made
    }
}
