/// Why compressed data could not be decoded or encoded.
public enum GzipError: Error, Equatable, CustomStringConvertible {
    /// The data is not valid gzip/deflate (bad header, CRC or length mismatch…); zlib's message.
    case corrupt(String)
    /// The compressed stream ended before its end marker.
    case truncated
    /// Bytes follow the end of the compressed stream.
    case trailingData
    /// The decoded data grew past the configured limit.
    case sizeLimitExceeded(limit: Int)
    /// The decoded data grew faster than the configured ratio allows: a decompression bomb.
    case expansionRatioExceeded(limit: Int)
    /// zlib refused to start or ran out of memory.
    case zlib(code: Int32)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .corrupt(let message):
            "The compressed data is corrupt (\(message))."
        case .truncated:
            "The compressed data ends before its end marker: the transfer was cut short."
        case .trailingData:
            "Unexpected bytes follow the end of the compressed data."
        case .sizeLimitExceeded(let limit):
            "The decompressed data is larger than \(limit) bytes; raise GzipLimits.maximumDecodedSize if it is expected."
        case .expansionRatioExceeded(let limit):
            "The data expands more than \(limit) times its compressed size, as a decompression bomb does; raise GzipLimits.maximumExpansionRatio if it is expected."
        case .zlib(let code):
            "zlib failed with code \(code)."
        }
    }
}
