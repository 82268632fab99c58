/// Why a form body could not be read or written.
public enum FormError: Error, Equatable, CustomStringConvertible {
    /// A field's name or value has a `%` without two hex digits, or bytes that are not UTF-8.
    /// `offset` is the byte offset of the field in the body.
    case invalidEncoding(field: String, offset: Int)

    /// What went wrong and where, in a sentence.
    public var description: String {
        switch self {
        case .invalidEncoding(let field, let offset):
            "The form field '\(field)' at byte \(offset) is not valid percent-encoded UTF-8."
        }
    }
}
