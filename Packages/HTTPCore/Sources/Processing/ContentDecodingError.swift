/// Why a compressed body could not be decoded, for the codings that have no error type of their
/// own (brotli, zstd). The session reports it as ``HTTPError/Code/contentDecoding`` with this
/// error underneath; a code added later does not break a `switch` over ``code``.
public struct ContentDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The data is not valid for its coding; ``detail`` has the library's message.
        public static let corrupt = Code(name: "corrupt")
        /// The compressed data ended before its end.
        public static let truncated = Code(name: "truncated")
        /// Bytes follow the end of the compressed data.
        public static let trailingData = Code(name: "trailingData")
        /// The decoded data grew past ``DecompressionLimits/maximumDecodedSize``.
        public static let sizeLimitExceeded = Code(name: "sizeLimitExceeded")
        /// The decoded data grew faster than ``DecompressionLimits/maximumExpansionRatio``
        /// allows: a decompression bomb.
        public static let expansionRatioExceeded = Code(name: "expansionRatioExceeded")
        /// The library refused to start (no memory).
        public static let library = Code(name: "library")
        /// The coding's library is not installed here; ``detail`` says what to install.
        public static let unavailable = Code(name: "unavailable")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// The content coding (`br`, `zstd`).
    public let coding: String
    /// The library's message, or the limit.
    public let detail: String

    /// A failure of `code` while undoing `coding`, with the library's message or the limit.
    public init(_ code: Code, coding: String, detail: String = "") {
        self.code = code
        self.coding = coding
        self.detail = detail
    }

    static func sizeLimitExceeded(coding: String, limit: Int) -> ContentDecodingError {
        ContentDecodingError(.sizeLimitExceeded, coding: coding, detail: String(limit))
    }

    static func expansionRatioExceeded(coding: String, limit: Int) -> ContentDecodingError {
        ContentDecodingError(.expansionRatioExceeded, coding: coding, detail: String(limit))
    }

    /// What happened to the encoded data, in a sentence.
    public var description: String {
        switch code {
        case .corrupt: "The \(coding) data is corrupt (\(detail))."
        case .truncated: "The \(coding) data ends before its end: the transfer was cut short."
        case .trailingData: "Unexpected bytes follow the end of the \(coding) data."
        case .sizeLimitExceeded:
            "The decoded data is larger than \(detail) bytes; raise DecompressionLimits.maximumDecodedSize if it is expected."
        case .expansionRatioExceeded:
            "The \(coding) data expands more than \(detail) times its size, as a decompression bomb does; raise DecompressionLimits.maximumExpansionRatio if it is expected."
        case .library: "The \(coding) library failed: \(detail)."
        case .unavailable: "The body is \(coding)-encoded, which cannot be decoded here: \(detail)."
        default: "\(code) (\(coding)): \(detail)"
        }
    }
}
