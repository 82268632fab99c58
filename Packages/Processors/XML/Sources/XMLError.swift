/// Why XML could not be parsed or queried.
public enum XMLError: Error, Equatable, CustomStringConvertible {
    /// The document is not well-formed; libxml2's message, line and column (from 1).
    case syntax(message: String, line: Int, column: Int)
    /// The document declares entities. They are refused outright: that is what external-entity
    /// attacks (XXE) and entity-expansion bombs ("billion laughs") are made of.
    case entityDeclarationsNotAllowed
    /// Elements nest deeper than the parser allows.
    case tooDeep(line: Int)
    /// The XPath expression is invalid, or uses a namespace prefix that was not given.
    case invalidXPath(expression: String, message: String)
    /// libxml2 could not allocate a parser or XPath context.
    case outOfMemory

    /// What went wrong and where, in a sentence.
    public var description: String {
        switch self {
        case .syntax(let message, let line, let column):
            "Invalid XML at line \(line), column \(column): \(message)"
        case .entityDeclarationsNotAllowed:
            "The XML declares entities, which are refused to prevent external-entity reads and expansion bombs."
        case .tooDeep(let line):
            "XML elements nest too deeply (at line \(line)); such documents are refused to protect the stack."
        case .invalidXPath(let expression, let message):
            "Invalid XPath '\(expression)': \(message). Pass the namespace prefixes it uses in `namespaces:`."
        case .outOfMemory:
            "libxml2 could not allocate memory."
        }
    }
}
