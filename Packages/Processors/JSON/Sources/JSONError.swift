/// Why JSON could not be read or written.
public enum JSONError: Error, Equatable, CustomStringConvertible {
    /// The text is not JSON. `line` and `column` count from 1 (columns in bytes); `excerpt`
    /// shows at most 40 bytes around the place.
    case syntax(reason: String, line: Int, column: Int, offset: Int, excerpt: String)
    /// Arrays and objects are nested deeper than the parser's limit.
    case tooDeep(limit: Int, line: Int, column: Int)
    /// A request object is neither a `JSONValue`, an `Encodable`, nor dictionaries and arrays
    /// of strings, numbers, booleans and `nil`.
    case unsupportedValue(type: String)
    /// A non-finite number (NaN, infinity) cannot be written as JSON.
    case nonFiniteNumber

    /// What went wrong and where, in a sentence.
    public var description: String {
        switch self {
        case .syntax(let reason, let line, let column, _, let excerpt):
            "Invalid JSON at line \(line), column \(column): \(reason). Near: \(excerpt)"
        case .tooDeep(let limit, let line, let column):
            "JSON nested deeper than \(limit) levels at line \(line), column \(column); raise maximumDepth if this is expected."
        case .unsupportedValue(let type):
            "A \(type) cannot be written as JSON: use JSONValue, an Encodable type, or dictionaries and arrays of strings, numbers, booleans and nil."
        case .nonFiniteNumber:
            "NaN and infinity cannot be written as JSON."
        }
    }
}
