/// Why a template could not be parsed or expanded. Parse errors carry the offset, in
/// characters from the start of the template, where the problem was found. A struct with a
/// growable ``Code``, so that a new failure does not break a caller's `switch`.
public struct URITemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// A `{` without its `}`.
        public static let unclosedExpression = Code(name: "unclosedExpression")
        /// A `}` outside an expression.
        public static let unexpectedClosingBrace = Code(name: "unexpectedClosingBrace")
        /// `{}`.
        public static let emptyExpression = Code(name: "emptyExpression")
        /// An operator RFC 6570 reserves for future use (`=` `,` `!` `@` `|`).
        public static let reservedOperator = Code(name: "reservedOperator")
        /// A variable name that is empty or holds a character outside `ALPHA DIGIT _ . %XX`,
        /// or a `.` at its start or end or doubled.
        public static let invalidVariableName = Code(name: "invalidVariableName")
        /// A prefix modifier (`:N`) that is not a number from 1 to 9999 without leading zeros,
        /// or one combined with `*`.
        public static let invalidPrefix = Code(name: "invalidPrefix")
        /// A `%` not followed by two hex digits.
        public static let malformedPercentEncoding = Code(name: "malformedPercentEncoding")
        /// A character that may not appear in a template's literal text (space, `"`, `<`, `>`,
        /// `\`, `^`, the backtick, `|`, control characters).
        public static let invalidLiteral = Code(name: "invalidLiteral")
        /// Expansion: a prefix modifier applied to a list or associative array (RFC 6570 §2.4.1).
        public static let prefixOnCompositeValue = Code(name: "prefixOnCompositeValue")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// Where in the template the problem was found, for parse errors.
    public let offset: Int?
    /// What was refused: the operator or character, the variable name, the prefix modifier,
    /// or (``Code/prefixOnCompositeValue``) the variable; else empty.
    public let subject: String

    private init(_ code: Code, offset: Int?, subject: String = "") {
        self.code = code
        self.offset = offset
        self.subject = subject
    }

    /// A `{` at `offset` without its `}`.
    public static func unclosedExpression(offset: Int) -> URITemplateError { URITemplateError(.unclosedExpression, offset: offset) }
    /// A `}` at `offset`, outside an expression.
    public static func unexpectedClosingBrace(offset: Int) -> URITemplateError { URITemplateError(.unexpectedClosingBrace, offset: offset) }
    /// `{}` at `offset`.
    public static func emptyExpression(offset: Int) -> URITemplateError { URITemplateError(.emptyExpression, offset: offset) }
    /// A reserved operator at `offset`.
    public static func reservedOperator(_ character: Character, offset: Int) -> URITemplateError {
        URITemplateError(.reservedOperator, offset: offset, subject: String(character))
    }
    /// An invalid variable `name` at `offset`.
    public static func invalidVariableName(_ name: String, offset: Int) -> URITemplateError {
        URITemplateError(.invalidVariableName, offset: offset, subject: name)
    }
    /// An invalid prefix `modifier` at `offset`.
    public static func invalidPrefix(_ modifier: String, offset: Int) -> URITemplateError {
        URITemplateError(.invalidPrefix, offset: offset, subject: modifier)
    }
    /// A `%` at `offset` not followed by two hex digits.
    public static func malformedPercentEncoding(offset: Int) -> URITemplateError { URITemplateError(.malformedPercentEncoding, offset: offset) }
    /// A `character` at `offset` that literal text may not hold.
    public static func invalidLiteral(_ character: Character, offset: Int) -> URITemplateError {
        URITemplateError(.invalidLiteral, offset: offset, subject: String(character))
    }
    /// A prefix modifier on `variable`, a list or associative array.
    public static func prefixOnCompositeValue(variable: String) -> URITemplateError {
        URITemplateError(.prefixOnCompositeValue, offset: nil, subject: variable)
    }

    /// What went wrong and where, in a sentence.
    public var description: String {
        let offset = offset.map(String.init) ?? "?"
        return switch code {
        case .unclosedExpression: "Unclosed expression at offset \(offset): add the missing '}'."
        case .unexpectedClosingBrace:
            "Unexpected '}' at offset \(offset): literal text cannot contain braces; percent-encode it as %7D."
        case .emptyExpression: "Empty expression '{}' at offset \(offset): name at least one variable."
        case .reservedOperator: "Operator '\(subject)' at offset \(offset) is reserved by RFC 6570; use one of + # . / ; ? &."
        case .invalidVariableName:
            "Invalid variable name '\(subject)' at offset \(offset): use letters, digits, '_', '.' between them, or %XX."
        case .invalidPrefix:
            "Invalid prefix modifier '\(subject)' at offset \(offset): use :N with N from 1 to 9999, without '*'."
        case .malformedPercentEncoding: "Malformed percent-encoding at offset \(offset): '%' must be followed by two hex digits."
        case .invalidLiteral:
            "Character \(subject.debugDescription) at offset \(offset) is not allowed in a template; percent-encode it."
        case .prefixOnCompositeValue:
            "Variable '\(subject)' is a list or associative array, and prefix modifiers apply only to strings."
        default: "\(code) at offset \(offset): \(subject)"
        }
    }
}
