/// Why compressed data could not be decoded or encoded. A struct with a growable ``Code``, so
/// that a new failure does not break a caller's `switch`.
public struct GzipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The data is not valid gzip/deflate (bad header, CRC or length mismatch…).
        public static let corrupt = Code(name: "corrupt")
        /// The compressed stream ended before its end marker.
        public static let truncated = Code(name: "truncated")
        /// Bytes follow the end of the compressed stream.
        public static let trailingData = Code(name: "trailingData")
        /// The decoded data grew past the configured limit.
        public static let sizeLimitExceeded = Code(name: "sizeLimitExceeded")
        /// The decoded data grew faster than the configured ratio allows: a decompression bomb.
        public static let expansionRatioExceeded = Code(name: "expansionRatioExceeded")
        /// zlib refused to start or ran out of memory.
        public static let zlib = Code(name: "zlib")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// zlib's message for ``Code/corrupt``, the status it returned for ``Code/zlib``; else empty.
    public let detail: String
    /// The limit passed, for ``Code/sizeLimitExceeded`` and ``Code/expansionRatioExceeded``.
    public let limit: Int?

    private init(_ code: Code, detail: String = "", limit: Int? = nil) {
        self.code = code
        self.detail = detail
        self.limit = limit
    }

    /// Data that is not valid gzip/deflate, with zlib's `message`.
    public static func corrupt(_ message: String) -> GzipError { GzipError(.corrupt, detail: message) }
    /// A stream that ended before its end marker.
    public static let truncated = GzipError(.truncated)
    /// Bytes after the end of the stream.
    public static let trailingData = GzipError(.trailingData)
    /// Decoded data larger than `limit` bytes.
    public static func sizeLimitExceeded(limit: Int) -> GzipError { GzipError(.sizeLimitExceeded, limit: limit) }
    /// Decoded data more than `limit` times its compressed size.
    public static func expansionRatioExceeded(limit: Int) -> GzipError { GzipError(.expansionRatioExceeded, limit: limit) }
    /// zlib's refusal, with the status it returned.
    public static func zlib(code: Int32) -> GzipError { GzipError(.zlib, detail: String(code)) }

    /// What went wrong, in a sentence.
    public var description: String {
        let limit = limit.map(String.init) ?? "?"
        return switch code {
        case .corrupt: "The compressed data is corrupt (\(detail))."
        case .truncated: "The compressed data ends before its end marker: the transfer was cut short."
        case .trailingData: "Unexpected bytes follow the end of the compressed data."
        case .sizeLimitExceeded:
            "The decompressed data is larger than \(limit) bytes; raise GzipLimits.maximumDecodedSize if it is expected."
        case .expansionRatioExceeded:
            "The data expands more than \(limit) times its compressed size, as a decompression bomb does; raise GzipLimits.maximumExpansionRatio if it is expected."
        case .zlib: "zlib failed with code \(detail)."
        default: "\(code): \(detail)"
        }
    }
}
