/// Why JSON could not be read or written. A struct with a growable ``Code``, so that a new
/// failure does not break a caller's `switch`.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The text is not JSON.
        public static let syntax = Code(name: "syntax")
        /// Arrays and objects are nested deeper than the parser's limit.
        public static let tooDeep = Code(name: "tooDeep")
        /// A request object is neither a `JSONValue`, an `Encodable`, nor dictionaries and
        /// arrays of strings, numbers, booleans and `nil`.
        public static let unsupportedValue = Code(name: "unsupportedValue")
        /// A non-finite number (NaN, infinity) cannot be written as JSON.
        public static let nonFiniteNumber = Code(name: "nonFiniteNumber")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// Why the text is not JSON (``Code/syntax``), or the type that cannot be written
    /// (``Code/unsupportedValue``); else empty.
    public let reason: String
    /// Where reading stopped, for ``Code/syntax`` and ``Code/tooDeep``: line and column count
    /// from 1 (columns in bytes), the offset from 0.
    public let line: Int?
    /// See ``line``.
    public let column: Int?
    /// See ``line``; for ``Code/syntax``.
    public let offset: Int?
    /// At most 40 bytes around the place, for ``Code/syntax``.
    public let excerpt: String?
    /// The parser's depth limit, for ``Code/tooDeep``.
    public let limit: Int?

    init(
        _ code: Code, reason: String = "", line: Int? = nil, column: Int? = nil, offset: Int? = nil, excerpt: String? = nil,
        limit: Int? = nil
    ) {
        self.code = code
        self.reason = reason
        self.line = line
        self.column = column
        self.offset = offset
        self.excerpt = excerpt
        self.limit = limit
    }

    /// Text that is not JSON, for `reason`, at a place and with an excerpt around it.
    public static func syntax(reason: String, line: Int, column: Int, offset: Int, excerpt: String) -> JSONError {
        JSONError(.syntax, reason: reason, line: line, column: column, offset: offset, excerpt: excerpt)
    }

    /// Nesting deeper than `limit`, at a place.
    public static func tooDeep(limit: Int, line: Int, column: Int) -> JSONError {
        JSONError(.tooDeep, line: line, column: column, limit: limit)
    }

    /// A value of `type` that JSON cannot hold.
    public static func unsupportedValue(type: String) -> JSONError { JSONError(.unsupportedValue, reason: type) }

    /// NaN or infinity.
    public static let nonFiniteNumber = JSONError(.nonFiniteNumber)

    /// The same failure, placed on `line`: for a text read a line at a time.
    func placed(onLine line: Int) -> JSONError {
        guard self.line != nil else { return self }
        return JSONError(code, reason: reason, line: line, column: column, offset: offset, excerpt: excerpt, limit: limit)
    }

    /// What went wrong and where, in a sentence.
    public var description: String {
        let place = "line \(line.map(String.init) ?? "?"), column \(column.map(String.init) ?? "?")"
        return switch code {
        case .syntax: "Invalid JSON at \(place): \(reason). Near: \(excerpt ?? "")"
        case .tooDeep:
            "JSON nested deeper than \(limit.map(String.init) ?? "?") levels at \(place); raise maximumDepth if this is expected."
        case .unsupportedValue:
            "A \(reason) cannot be written as JSON: use JSONValue, an Encodable type, or dictionaries and arrays of strings, numbers, booleans and nil."
        case .nonFiniteNumber: "NaN and infinity cannot be written as JSON."
        default: "\(code): \(reason)"
        }
    }
}
