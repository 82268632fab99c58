/// Everything that can go wrong building or reading a multipart body.
public enum MultipartError: Error, Equatable, CustomStringConvertible {
    /// The Content-Type has no usable `boundary` parameter.
    case missingBoundary(contentType: String)
    /// A boundary given by the caller is not 1–70 allowed characters (RFC 2046 §5.1.1).
    case invalidBoundary(String)
    /// A file part cannot be read.
    case unreadableFile(path: String)
    /// The body has no opening boundary line.
    case noOpeningBoundary
    /// The body ended inside part `index` (0-based), before the closing boundary.
    case truncated(partIndex: Int)
    /// Something other than CRLF or `--` follows a boundary.
    case malformedBoundaryLine(partIndex: Int)
    /// A header line of part `index` is not `Name: value`.
    case malformedHeader(partIndex: Int, line: String)
    /// The headers of a part are longer than the limit.
    case headersTooLarge(partIndex: Int, limit: Int)
    /// The body has more parts than the limit.
    case tooManyParts(limit: Int)

    /// What went wrong and where, in a sentence.
    public var description: String {
        switch self {
        case .missingBoundary(let contentType):
            "The Content-Type '\(contentType)' has no boundary parameter; a multipart body cannot be split without it."
        case .invalidBoundary(let boundary):
            "'\(boundary)' is not a valid boundary: use 1 to 70 letters, digits and '()+_,-./:=? (no trailing space), or let one be generated."
        case .unreadableFile(let path):
            "The file part at \(path) cannot be read; check that it exists and is readable."
        case .noOpeningBoundary:
            "The body does not contain its opening boundary line; it is not multipart, or the boundary in Content-Type is wrong."
        case .truncated(let index):
            "The multipart body ended inside part \(index + 1), before the closing boundary: the transfer was cut short."
        case .malformedBoundaryLine(let index):
            "The boundary line before part \(index + 1) is followed by neither CRLF nor '--'."
        case .malformedHeader(let index, let line):
            "Part \(index + 1) has a header line that is not 'Name: value': '\(line.prefix(80))'."
        case .headersTooLarge(let index, let limit):
            "The headers of part \(index + 1) exceed \(limit) bytes; raise MultipartLimits.maximumHeaderBytes if they are legitimate."
        case .tooManyParts(let limit):
            "The body has more than \(limit) parts; raise MultipartLimits.maximumParts if that is expected."
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
