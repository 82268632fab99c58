import CZlib
import Foundation
import JewzHTTPCore

/// Decompresses a gzip, zlib or raw deflate stream fed in pieces, as a body arrives.
///
/// With ``Format/automatic`` the format is read from the first two bytes, since servers label
/// raw deflate as `deflate` as often as zlib-wrapped data. Concatenated gzip members are
/// decoded in turn (RFC 1952 §2.2); CRC and length are checked by zlib.
///
/// ```swift
/// let chunk = Data()
/// let decompressor = GzipDecompressor()
/// var output = Data()
/// try chunk.withUnsafeBytes { try decompressor.decode($0, into: &output) }
/// try decompressor.finish(into: &output)
/// ```
public final class GzipDecompressor: HTTPContentDecoding {
    /// The wrapping of the compressed stream.
    public enum Format: Sendable {
        /// A gzip member (RFC 1952): `Content-Encoding: gzip`.
        case gzip
        /// A zlib stream (RFC 1950): what `Content-Encoding: deflate` means.
        case zlib
        /// Deflate data without a wrapping (RFC 1951), as some servers send `deflate`.
        case rawDeflate
        /// Decided from the first two bytes: gzip magic, a zlib header, else raw deflate.
        case automatic

        var windowBits: Int32 {
            switch self {
            case .gzip: 15 + 16
            case .zlib: 15
            case .rawDeflate: -15
            case .automatic: 15 + 32
            }
        }
    }

    private static let scratchSize = 1 << 17

    private let stream: UnsafeMutablePointer<z_stream>
    private var budget: DecompressionBudget
    private var format: Format
    private var isInitialized = false
    private var header: [UInt8] = []
    private var streamEnded = false
    /// Allocated on the first inflate, not with the decompressor: a response may name codings
    /// it never sends a byte for.
    private var scratch: [UInt8] = []

    /// A decompressor of `format`, within `limits`.
    public init(format: Format = .automatic, limits: GzipLimits = GzipLimits()) {
        self.format = format
        budget = DecompressionBudget(limits)
        stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if isInitialized { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Decodes the next piece of compressed input, appending the output.
    ///
    /// - Throws: ``GzipError``.
    public func decode(_ input: UnsafeRawBufferPointer, into output: inout Data) throws {
        guard !input.isEmpty else { return }
        if !isInitialized {
            // Two bytes decide the format; keep a lone first byte until the second arrives.
            let taken = min(2 - header.count, input.count)
            header.append(contentsOf: input.prefix(taken))
            guard header.count == 2 else { return }
            try start(detecting: header)
            let buffered = header
            header = []
            try buffered.withUnsafeBytes { try inflate($0, into: &output) }
            try inflate(UnsafeRawBufferPointer(rebasing: input[taken...]), into: &output)
            return
        }
        try inflate(input, into: &output)
    }

    /// Ends the input.
    ///
    /// - Throws: ``GzipError/truncated`` when the stream did not reach its end marker.
    public func finish(into output: inout Data) throws {
        if !isInitialized, !header.isEmpty { throw GzipError.truncated }
        guard isInitialized else { return }
        guard streamEnded else { throw GzipError.truncated }
    }

    private func start(detecting bytes: [UInt8]) throws {
        if format == .automatic {
            if bytes[0] == 0x1F, bytes[1] == 0x8B {
                format = .gzip
            } else if bytes[0] & 0x0F == 8, bytes[0] >> 4 <= 7, (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0 {
                format = .zlib
            } else {
                format = .rawDeflate
            }
        }
        let code = inflateInit2_(stream, format.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else { throw GzipError.zlib(code: code) }
        isInitialized = true
    }

    private func inflate(_ input: UnsafeRawBufferPointer, into output: inout Data) throws {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        if streamEnded {
            // Another gzip member may follow; anything else is trailing garbage.
            guard format == .gzip, input.first == 0x1F else { throw GzipError.trailingData }
            inflateReset(stream)
            streamEnded = false
        }
        budget.consume(input.count)
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: Self.scratchSize) }
        try scratch.withUnsafeMutableBufferPointer { scratch in
            while true {
                stream.pointee.next_out = scratch.baseAddress
                stream.pointee.avail_out = uInt(scratch.count)
                let code = CZlib.inflate(stream, Z_NO_FLUSH)
                let produced = scratch.count - Int(stream.pointee.avail_out)
                if produced > 0 {
                    output.append(UnsafeBufferPointer(rebasing: scratch[..<produced]))
                    try count(produced)
                }
                switch code {
                case Z_STREAM_END:
                    streamEnded = true
                    let remaining = Int(stream.pointee.avail_in)
                    guard remaining > 0 else { return }
                    guard format == .gzip, stream.pointee.next_in.pointee == 0x1F else { throw GzipError.trailingData }
                    inflateReset(stream)
                    streamEnded = false
                case Z_OK:
                    if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 { return }
                case Z_BUF_ERROR:
                    return
                case Z_DATA_ERROR, Z_NEED_DICT, Z_STREAM_ERROR:
                    let message = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                    throw GzipError.corrupt(message)
                default:
                    throw GzipError.zlib(code: code)
                }
            }
        }
    }

    /// Counts `produced` decoded bytes against the limits, in gzip's own errors.
    private func count(_ produced: Int) throws {
        do {
            try budget.produce(produced, coding: "gzip")
        } catch {
            switch error.code {
            case .sizeLimitExceeded: throw GzipError.sizeLimitExceeded(limit: budget.limits.maximumDecodedSize)
            default: throw GzipError.expansionRatioExceeded(limit: budget.limits.maximumExpansionRatio)
            }
        }
    }
}
