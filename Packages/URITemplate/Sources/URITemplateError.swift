/// Why a template could not be parsed or expanded. Parse errors carry the offset, in
/// characters from the start of the template, where the problem was found.
public enum URITemplateError: Error, Equatable, CustomStringConvertible {
    /// A `{` without its `}`.
    case unclosedExpression(offset: Int)
    /// A `}` outside an expression.
    case unexpectedClosingBrace(offset: Int)
    /// `{}`.
    case emptyExpression(offset: Int)
    /// An operator RFC 6570 reserves for future use (`=` `,` `!` `@` `|`).
    case reservedOperator(Character, offset: Int)
    /// A variable name that is empty or holds a character outside `ALPHA DIGIT _ . %XX`,
    /// or a `.` at its start or end or doubled.
    case invalidVariableName(String, offset: Int)
    /// A prefix modifier (`:N`) that is not a number from 1 to 9999 without leading zeros,
    /// or one combined with `*`.
    case invalidPrefix(String, offset: Int)
    /// A `%` not followed by two hex digits.
    case malformedPercentEncoding(offset: Int)
    /// A character that may not appear in a template's literal text (space, `"`, `<`, `>`,
    /// `\`, `^`, the backtick, `|`, control characters).
    case invalidLiteral(Character, offset: Int)
    /// Expansion: a prefix modifier applied to a list or associative array (RFC 6570 §2.4.1).
    case prefixOnCompositeValue(variable: String)

    /// Where in the template the problem was found, for parse errors.
    public var offset: Int? {
        switch self {
        case .unclosedExpression(let offset), .unexpectedClosingBrace(let offset), .emptyExpression(let offset),
            .reservedOperator(_, let offset), .invalidVariableName(_, let offset), .invalidPrefix(_, let offset),
            .malformedPercentEncoding(let offset), .invalidLiteral(_, let offset):
            offset
        case .prefixOnCompositeValue:
            nil
        }
    }

    /// What went wrong and where, in a sentence.
    public var description: String {
        switch self {
        case .unclosedExpression(let offset):
            "Unclosed expression at offset \(offset): add the missing '}'."
        case .unexpectedClosingBrace(let offset):
            "Unexpected '}' at offset \(offset): literal text cannot contain braces; percent-encode it as %7D."
        case .emptyExpression(let offset):
            "Empty expression '{}' at offset \(offset): name at least one variable."
        case .reservedOperator(let character, let offset):
            "Operator '\(character)' at offset \(offset) is reserved by RFC 6570; use one of + # . / ; ? &."
        case .invalidVariableName(let name, let offset):
            "Invalid variable name '\(name)' at offset \(offset): use letters, digits, '_', '.' between them, or %XX."
        case .invalidPrefix(let modifier, let offset):
            "Invalid prefix modifier '\(modifier)' at offset \(offset): use :N with N from 1 to 9999, without '*'."
        case .malformedPercentEncoding(let offset):
            "Malformed percent-encoding at offset \(offset): '%' must be followed by two hex digits."
        case .invalidLiteral(let character, let offset):
            "Character \(character.debugDescription) at offset \(offset) is not allowed in a template; percent-encode it."
        case .prefixOnCompositeValue(let variable):
            "Variable '\(variable)' is a list or associative array, and prefix modifiers apply only to strings."
        }
    }
}
