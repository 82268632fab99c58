/// Terminal colours for JSON text: the escape sequences written before each kind of token,
/// and the one that resets after it.
public struct JSONHighlighting: Sendable {
    /// Written before a member's key.
    public var key: String
    /// Written before a string value.
    public var string: String
    /// Written before a number.
    public var number: String
    /// Written before `true`, `false` and `null`.
    public var literal: String
    /// Written after each token, to go back to plain text.
    public var reset: String

    /// Colours given as escape sequences.
    public init(key: String, string: String, number: String, literal: String, reset: String) {
        self.key = key
        self.string = string
        self.number = number
        self.literal = literal
        self.reset = reset
    }

    /// ANSI colours: blue keys, green strings, yellow numbers, magenta `true`/`false`/`null`.
    public static let ansi = JSONHighlighting(
        key: "\u{1B}[34m", string: "\u{1B}[32m", number: "\u{1B}[33m", literal: "\u{1B}[35m", reset: "\u{1B}[0m")
}

/// Writes ``JSONValue``s as JSON text, members in their order, compact or indented by two spaces.
enum JSONWriter {
    static func string(for value: JSONValue, pretty: Bool, highlighting: JSONHighlighting? = nil) -> String {
        String(decoding: bytes(for: value, pretty: pretty, highlighting: highlighting), as: UTF8.self)
    }

    static func bytes(for value: JSONValue, pretty: Bool, highlighting: JSONHighlighting? = nil) -> [UInt8] {
        var output: [UInt8] = []
        write(value, pretty: pretty, highlighting: highlighting, indent: 0, to: &output)
        return output
    }

    private static func write(
        _ value: JSONValue, pretty: Bool, highlighting: JSONHighlighting?, indent: Int, to output: inout [UInt8]
    ) {
        switch value {
        case .null: token("null", highlighting?.literal, highlighting, &output)
        case .bool(let flag): token(flag ? "true" : "false", highlighting?.literal, highlighting, &output)
        case .number(let number): token(number.text, highlighting?.number, highlighting, &output)
        case .string(let string): quoted(string, highlighting?.string, highlighting, &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(pretty, indent + 1, &output)
                write(element, pretty: pretty, highlighting: highlighting, indent: indent + 1, to: &output)
            }
            if !elements.isEmpty { newline(pretty, indent, &output) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(pretty, indent + 1, &output)
                quoted(member.key, highlighting?.key, highlighting, &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                write(member.value, pretty: pretty, highlighting: highlighting, indent: indent + 1, to: &output)
            }
            if object.count > 0 { newline(pretty, indent, &output) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func token(_ text: String, _ color: String?, _ highlighting: JSONHighlighting?, _ output: inout [UInt8]) {
        if let color { output.append(contentsOf: color.utf8) }
        output.append(contentsOf: text.utf8)
        if let highlighting { output.append(contentsOf: highlighting.reset.utf8) }
    }

    private static func quoted(_ text: String, _ color: String?, _ highlighting: JSONHighlighting?, _ output: inout [UInt8]) {
        if let color { output.append(contentsOf: color.utf8) }
        writeString(text, to: &output)
        if let highlighting { output.append(contentsOf: highlighting.reset.utf8) }
    }

    private static func newline(_ pretty: Bool, _ indent: Int, _ output: inout [UInt8]) {
        guard pretty else { return }
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A string literal: quotes, backslashes and control characters escaped (RFC 8259 §7).
    static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case 0x0A: output.append(contentsOf: "\\n".utf8)
            case 0x0D: output.append(contentsOf: "\\r".utf8)
            case 0x09: output.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                output.append(contentsOf: "\\u00".utf8)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// Parses JSON text.
    ///
    /// - Parameters:
    ///   - bytes: the text, UTF-8 encoded.
    ///   - maximumDepth: the deepest nesting of arrays and objects accepted.
    /// - Throws: ``JSONError/syntax(reason:line:column:offset:excerpt:)`` or
    ///   ``JSONError/tooDeep(limit:line:column:)``.
    public init(parsing bytes: some Sequence<UInt8>, maximumDepth: Int = 512) throws(JSONError) {
        var parser = JSONParser(bytes: Array(bytes), maximumDepth: maximumDepth)
        self = try parser.parseDocument()
    }

    /// Parses JSON text from a string.
    public init(parsing text: String, maximumDepth: Int = 512) throws(JSONError) {
        try self.init(parsing: text.utf8, maximumDepth: maximumDepth)
    }

    /// JSON text for this value: compact, or indented by two spaces, optionally coloured for
    /// a terminal.
    public func formatted(pretty: Bool = false, highlighting: JSONHighlighting? = nil) -> String {
        JSONWriter.string(for: self, pretty: pretty, highlighting: highlighting)
    }

    /// UTF-8 JSON bytes for this value.
    public func encoded(pretty: Bool = false) -> [UInt8] {
        JSONWriter.bytes(for: self, pretty: pretty)
    }
}
