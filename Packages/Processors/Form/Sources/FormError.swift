/// Why a form body could not be read or written.
public enum FormError: Error, Equatable, CustomStringConvertible {
    /// A field's name or value has a `%` without two hex digits, or bytes that are not UTF-8.
    /// `offset` is the byte offset of the field in the body.
    case invalidEncoding(field: String, offset: Int)
    /// A request object that the form processor cannot write.
    case unsupportedValue(type: String)

    public var description: String {
        switch self {
        case .invalidEncoding(let field, let offset):
            "The form field '\(field)' at byte \(offset) is not valid percent-encoded UTF-8."
        case .unsupportedValue(let type):
            "A \(type) cannot be sent as a form: use FormFields, a FormValue, or [String: String]."
        }
    }
}
