/// Writes ``JSONValue``s as JSON text, members in their order, compact or indented by two spaces.
enum JSONWriter {
    static func string(for value: JSONValue, pretty: Bool) -> String {
        var output: [UInt8] = []
        write(value, pretty: pretty, indent: 0, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    static func bytes(for value: JSONValue, pretty: Bool) -> [UInt8] {
        var output: [UInt8] = []
        write(value, pretty: pretty, indent: 0, to: &output)
        return output
    }

    static func write(_ value: JSONValue, pretty: Bool, indent: Int, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): output.append(contentsOf: number.text.utf8)
        case .string(let string): writeString(string, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(pretty, indent + 1, &output)
                write(element, pretty: pretty, indent: indent + 1, to: &output)
            }
            if !elements.isEmpty { newline(pretty, indent, &output) }
            output.append(UInt8(ascii: "]"))
        case .object(let object):
            output.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(pretty, indent + 1, &output)
                writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                write(member.value, pretty: pretty, indent: indent + 1, to: &output)
            }
            if object.count > 0 { newline(pretty, indent, &output) }
            output.append(UInt8(ascii: "}"))
        }
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
    /// - Parameter maximumDepth: the deepest nesting of arrays and objects accepted.
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

    /// JSON text for this value: compact, or indented by two spaces.
    public func formatted(pretty: Bool = false) -> String {
        JSONWriter.string(for: self, pretty: pretty)
    }

    /// UTF-8 JSON bytes for this value.
    public func encoded(pretty: Bool = false) -> [UInt8] {
        JSONWriter.bytes(for: self, pretty: pretty)
    }
}
