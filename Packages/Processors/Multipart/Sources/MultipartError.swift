/// Everything that can go wrong building or reading a multipart body. A struct with a growable
/// ``Code``, so that a new failure does not break a caller's `switch`.
public struct MultipartError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The Content-Type has no usable `boundary` parameter.
        public static let missingBoundary = Code(name: "missingBoundary")
        /// A boundary given by the caller is not 1–70 allowed characters (RFC 2046 §5.1.1).
        public static let invalidBoundary = Code(name: "invalidBoundary")
        /// A file part cannot be read.
        public static let unreadableFile = Code(name: "unreadableFile")
        /// The body has no opening boundary line.
        public static let noOpeningBoundary = Code(name: "noOpeningBoundary")
        /// The body ended inside a part, before the closing boundary.
        public static let truncated = Code(name: "truncated")
        /// Something other than CRLF or `--` follows a boundary.
        public static let malformedBoundaryLine = Code(name: "malformedBoundaryLine")
        /// A header line of a part is not `Name: value`.
        public static let malformedHeader = Code(name: "malformedHeader")
        /// The headers of a part are longer than the limit.
        public static let headersTooLarge = Code(name: "headersTooLarge")
        /// The body has more parts than the limit.
        public static let tooManyParts = Code(name: "tooManyParts")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// What was refused: the Content-Type (``Code/missingBoundary``), the boundary
    /// (``Code/invalidBoundary``), the file's path (``Code/unreadableFile``) or the header line
    /// (``Code/malformedHeader``); else empty.
    public let subject: String
    /// The part (from 0) the failure is in, for the failures of a body being read.
    public let partIndex: Int?
    /// The limit passed, for ``Code/headersTooLarge`` and ``Code/tooManyParts``.
    public let limit: Int?

    private init(_ code: Code, subject: String = "", partIndex: Int? = nil, limit: Int? = nil) {
        self.code = code
        self.subject = subject
        self.partIndex = partIndex
        self.limit = limit
    }

    /// A `contentType` without a usable boundary.
    public static func missingBoundary(contentType: String) -> MultipartError { MultipartError(.missingBoundary, subject: contentType) }
    /// A `boundary` that is not 1–70 allowed characters.
    public static func invalidBoundary(_ boundary: String) -> MultipartError { MultipartError(.invalidBoundary, subject: boundary) }
    /// A file part at `path` that cannot be read.
    public static func unreadableFile(path: String) -> MultipartError { MultipartError(.unreadableFile, subject: path) }
    /// A body without its opening boundary line.
    public static let noOpeningBoundary = MultipartError(.noOpeningBoundary)
    /// A body that ended inside part `partIndex`.
    public static func truncated(partIndex: Int) -> MultipartError { MultipartError(.truncated, partIndex: partIndex) }
    /// A boundary line before part `partIndex` followed by neither CRLF nor `--`.
    public static func malformedBoundaryLine(partIndex: Int) -> MultipartError { MultipartError(.malformedBoundaryLine, partIndex: partIndex) }
    /// A header `line` of part `partIndex` that is not `Name: value`.
    public static func malformedHeader(partIndex: Int, line: String) -> MultipartError {
        MultipartError(.malformedHeader, subject: line, partIndex: partIndex)
    }
    /// Headers of part `partIndex` longer than `limit` bytes.
    public static func headersTooLarge(partIndex: Int, limit: Int) -> MultipartError {
        MultipartError(.headersTooLarge, partIndex: partIndex, limit: limit)
    }
    /// More parts than `limit`.
    public static func tooManyParts(limit: Int) -> MultipartError { MultipartError(.tooManyParts, limit: limit) }

    /// What went wrong and where, in a sentence.
    public var description: String {
        let part = (partIndex ?? 0) + 1
        let limit = limit.map(String.init) ?? "?"
        return switch code {
        case .missingBoundary:
            "The Content-Type '\(subject)' has no boundary parameter; a multipart body cannot be split without it."
        case .invalidBoundary:
            "'\(subject)' is not a valid boundary: use 1 to 70 letters, digits and '()+_,-./:=? (no trailing space), or let one be generated."
        case .unreadableFile: "The file part at \(subject) cannot be read; check that it exists and is readable."
        case .noOpeningBoundary:
            "The body does not contain its opening boundary line; it is not multipart, or the boundary in Content-Type is wrong."
        case .truncated: "The multipart body ended inside part \(part), before the closing boundary: the transfer was cut short."
        case .malformedBoundaryLine: "The boundary line before part \(part) is followed by neither CRLF nor '--'."
        case .malformedHeader: "Part \(part) has a header line that is not 'Name: value': '\(subject.prefix(80))'."
        case .headersTooLarge:
            "The headers of part \(part) exceed \(limit) bytes; raise MultipartLimits.maximumHeaderBytes if they are legitimate."
        case .tooManyParts: "The body has more than \(limit) parts; raise MultipartLimits.maximumParts if that is expected."
        default: "\(code): \(subject)"
        }
    }
}

/// Bounds on what a parser accepts, so that a hostile body cannot make it buffer without end.
public struct MultipartLimits: Sendable, Equatable {
    /// The most bytes of headers per part.
    public var maximumHeaderBytes = 16 << 10
    /// The most parts per body.
    public var maximumParts = 10_000

    /// The default limits.
    public init() {}
}
