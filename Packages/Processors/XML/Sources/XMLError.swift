/// Why XML could not be parsed or queried. A struct with a growable ``Code``, so that a new
/// failure does not break a caller's `switch`.
public struct XMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The document is not well-formed.
        public static let syntax = Code(name: "syntax")
        /// The document declares entities. They are refused outright: that is what
        /// external-entity attacks (XXE) and entity-expansion bombs ("billion laughs") are made of.
        public static let entityDeclarationsNotAllowed = Code(name: "entityDeclarationsNotAllowed")
        /// Elements nest deeper than the parser allows.
        public static let tooDeep = Code(name: "tooDeep")
        /// The XPath expression is invalid, or uses a namespace prefix that was not given.
        public static let invalidXPath = Code(name: "invalidXPath")
        /// libxml2 could not allocate a parser or XPath context.
        public static let outOfMemory = Code(name: "outOfMemory")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// libxml2's message, for ``Code/syntax`` and ``Code/invalidXPath``; else empty.
    public let message: String
    /// The line (from 1) where parsing stopped, for ``Code/syntax`` and ``Code/tooDeep``.
    public let line: Int?
    /// The column (from 1) where parsing stopped, for ``Code/syntax``.
    public let column: Int?
    /// The expression, for ``Code/invalidXPath``.
    public let expression: String?

    private init(_ code: Code, message: String = "", line: Int? = nil, column: Int? = nil, expression: String? = nil) {
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.expression = expression
    }

    /// A document that is not well-formed: libxml2's message, line and column (from 1).
    public static func syntax(message: String, line: Int, column: Int) -> XMLError {
        XMLError(.syntax, message: message, line: line, column: column)
    }

    /// A document that declares entities.
    public static let entityDeclarationsNotAllowed = XMLError(.entityDeclarationsNotAllowed)

    /// Elements nested too deep, at `line`.
    public static func tooDeep(line: Int) -> XMLError { XMLError(.tooDeep, line: line) }

    /// An XPath `expression` libxml2 refused with `message`.
    public static func invalidXPath(expression: String, message: String) -> XMLError {
        XMLError(.invalidXPath, message: message, expression: expression)
    }

    /// libxml2 out of memory.
    public static let outOfMemory = XMLError(.outOfMemory)

    /// What went wrong and where, in a sentence.
    public var description: String {
        let line = line.map(String.init) ?? "?"
        return switch code {
        case .syntax: "Invalid XML at line \(line), column \(column.map(String.init) ?? "?"): \(message)"
        case .entityDeclarationsNotAllowed:
            "The XML declares entities, which are refused to prevent external-entity reads and expansion bombs."
        case .tooDeep: "XML elements nest too deeply (at line \(line)); such documents are refused to protect the stack."
        case .invalidXPath:
            "Invalid XPath '\(expression ?? "")': \(message). Pass the namespace prefixes it uses in `namespaces:`."
        case .outOfMemory: "libxml2 could not allocate memory."
        default: "\(code): \(message)"
        }
    }
}
