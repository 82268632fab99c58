/// Why a form body could not be read or written. A struct with a growable ``Code``, so that a
/// new failure does not break a caller's `switch`.
public struct FormError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// A field's name or value has a `%` without two hex digits, or bytes that are not UTF-8.
        public static let invalidEncoding = Code(name: "invalidEncoding")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// The field the failure is in.
    public let field: String
    /// The byte offset of ``field`` in the body.
    public let offset: Int

    /// A field whose name or value is not valid percent-encoded UTF-8.
    public static func invalidEncoding(field: String, offset: Int) -> FormError {
        FormError(code: .invalidEncoding, field: field, offset: offset)
    }

    /// What went wrong and where, in a sentence.
    public var description: String {
        switch code {
        case .invalidEncoding: "The form field '\(field)' at byte \(offset) is not valid percent-encoded UTF-8."
        default: "\(code) in the form field '\(field)' at byte \(offset)."
        }
    }
}
