/// Why bytes are not an image this module can describe. A struct with a growable ``Code``, so
/// that a new failure does not break a caller's `switch`.
public struct ImageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a value to compare with the static members; new ones may come.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let description: String

        /// The bytes are no image format this module knows: ``ImageError/lookalike`` says what
        /// they seem to be instead.
        public static let notAnImage = Code(description: "notAnImage")
        /// The header ends before the pixel size: a download cut short, or only its start.
        public static let truncated = Code(description: "truncated")
        /// The header contradicts itself or gives a size of zero.
        public static let invalidHeader = Code(description: "invalidHeader")
    }

    /// What went wrong.
    public let code: Code
    /// The format the bytes claim, when they claim one.
    public let format: ImageFormat?
    /// For ``Code/notAnImage``: what the bytes look like ("an HTML page", "JSON", "empty"…).
    public let lookalike: String?
    /// What went wrong, in a sentence.
    public let description: String

    static func notAnImage(lookingLike lookalike: String) -> ImageError {
        ImageError(
            code: .notAnImage, format: nil, lookalike: lookalike,
            description: "The data is not an image: it looks like \(lookalike). Check the URL, or what the server sends for it.")
    }

    static func truncated(_ format: ImageFormat) -> ImageError {
        ImageError(
            code: .truncated, format: format, lookalike: nil,
            description: "The \(format) data ends inside its header: the image was cut short.")
    }

    static func invalidHeader(_ format: ImageFormat, _ reason: String) -> ImageError {
        ImageError(
            code: .invalidHeader, format: format, lookalike: nil,
            description: "The \(format) header is not valid (\(reason)): the file is damaged or not what it claims.")
    }
}
