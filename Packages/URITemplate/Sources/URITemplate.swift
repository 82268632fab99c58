/// An RFC 6570 URI template, levels 1 to 4, parsed once and expanded many times.
///
/// ```swift
/// let template = try URITemplate("https://api.example.com{/path*}{?query*}{#section}")
/// let url = try template.expand([
///     "path": ["repos", "jewzruxin"],
///     "query": ["sort": "updated", "page": "2"],   // pairs keep this order
///     "section": "top",
/// ])
/// // https://api.example.com/repos/jewzruxin?sort=updated&page=2#top
/// ```
///
/// Prefix modifiers (`{var:3}`) count Unicode code points, which is what RFC 6570 §1.6 means by
/// "character"; in reserved (`+`) and fragment (`#`) expansion a percent-encoded triplet in the
/// value counts as one character and is never split.
public struct URITemplate: Sendable, Hashable, CustomStringConvertible {
    /// The template as written.
    public let template: String
    /// The compiled template: parts refer by range to the literal bytes (already in expanded,
    /// encoded form) and to the variables, so parsing allocates a few arrays, not one per piece.
    let parts: [Part]
    let literalBytes: [UInt8]
    let variables: [VariableSpec]

    /// Parses a template.
    ///
    /// - Throws: ``URITemplateError`` with the offset of the first problem.
    public init(_ template: String) throws(URITemplateError) {
        self.template = template
        var parser = URITemplateParser(template)
        try parser.parse()
        parts = parser.parts
        literalBytes = parser.literalBytes
        variables = parser.variables
    }

    /// The names of the template's variables, in order of first appearance, without repeats.
    public var variableNames: [String] {
        var seen = Set<String>()
        var names: [String] = []
        for variable in variables where seen.insert(variable.name).inserted {
            names.append(variable.name)
        }
        return names
    }

    /// Expands the template with the given variables; missing ones are undefined.
    ///
    /// - Throws: ``URITemplateError/prefixOnCompositeValue(variable:)`` when a `:N` modifier
    ///   meets a list or associative array.
    public func expand(_ variables: [String: Value]) throws(URITemplateError) -> String {
        try expand { variables[$0] }
    }

    /// Expands the template, asking `lookup` for each variable's value (`nil`: undefined).
    ///
    /// - Throws: ``URITemplateError/prefixOnCompositeValue(variable:)``.
    public func expand(using lookup: (String) -> Value?) throws(URITemplateError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(template.utf8.count + 32)
        for part in parts {
            switch part {
            case .literal(let range):
                output.append(contentsOf: literalBytes[range])
            case .expression(let expression):
                try expression.expand(variables[expression.variables], into: &output, lookup: lookup)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The template's text.
    public var description: String { template }

    /// Whether both templates have the same text.
    public static func == (lhs: URITemplate, rhs: URITemplate) -> Bool { lhs.template == rhs.template }
    /// Hashes the template's text.
    public func hash(into hasher: inout Hasher) { hasher.combine(template) }
}

extension URITemplate {
    /// A compiled piece of a template: a range of ``literalBytes``, or an expression.
    enum Part: Sendable {
        case literal(Range<Int>)
        case expression(Expression)
    }

    struct Expression: Sendable {
        let operation: Operator
        /// The expression's range of ``URITemplate/variables``.
        let variables: Range<Int>
    }

    struct VariableSpec: Sendable {
        /// The name as written, also what a named expansion repeats.
        let name: String
        let prefix: Int?
        let explode: Bool
    }

    /// An expression operator and the expansion behaviour RFC 6570 Appendix A tables for it.
    struct Operator: Sendable, Equatable {
        let symbol: UInt8?
        let first: UInt8?
        let separator: UInt8
        let named: Bool
        let ifEmpty: UInt8?
        let allowsReserved: Bool

        static let simple = Operator(symbol: nil, first: nil, separator: .comma, named: false, ifEmpty: nil, allowsReserved: false)
        static let reserved = Operator(symbol: .plus, first: nil, separator: .comma, named: false, ifEmpty: nil, allowsReserved: true)
        static let fragment = Operator(symbol: .hash, first: .hash, separator: .comma, named: false, ifEmpty: nil, allowsReserved: true)
        static let label = Operator(symbol: .dot, first: .dot, separator: .dot, named: false, ifEmpty: nil, allowsReserved: false)
        static let path = Operator(symbol: .slash, first: .slash, separator: .slash, named: false, ifEmpty: nil, allowsReserved: false)
        static let pathParameter = Operator(symbol: .semicolon, first: .semicolon, separator: .semicolon, named: true, ifEmpty: nil, allowsReserved: false)
        static let query = Operator(symbol: .question, first: .question, separator: .ampersand, named: true, ifEmpty: .equals, allowsReserved: false)
        static let continuation = Operator(symbol: .ampersand, first: .ampersand, separator: .ampersand, named: true, ifEmpty: .equals, allowsReserved: false)

        static func forSymbol(_ byte: UInt8) -> Operator? {
            switch byte {
            case .plus: .reserved
            case .hash: .fragment
            case .dot: .label
            case .slash: .path
            case .semicolon: .pathParameter
            case .question: .query
            case .ampersand: .continuation
            default: nil
            }
        }

        /// The level of RFC 6570 that introduced the operator.
        var level: Int {
            switch symbol {
            case nil: 1
            case .plus?, .hash?: 2
            default: 3
            }
        }
    }
}

extension UInt8 {
    static let plus = UInt8(ascii: "+")
    static let hash = UInt8(ascii: "#")
    static let dot = UInt8(ascii: ".")
    static let slash = UInt8(ascii: "/")
    static let semicolon = UInt8(ascii: ";")
    static let question = UInt8(ascii: "?")
    static let ampersand = UInt8(ascii: "&")
    static let equals = UInt8(ascii: "=")
    static let comma = UInt8(ascii: ",")
    static let percent = UInt8(ascii: "%")
    static let colon = UInt8(ascii: ":")
    static let asterisk = UInt8(ascii: "*")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
}
