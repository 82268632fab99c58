/// A strict RFC 8259 parser over UTF-8 bytes, building ``JSONValue``s with objects in document
/// order. Nesting is bounded so hostile input cannot exhaust the stack.
struct JSONParser {
    private let bytes: [UInt8]
    private let maximumDepth: Int
    private var index = 0
    private var depth = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Parses one value and requires nothing but whitespace after it.
    mutating func parseDocument() throws(JSONError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw syntaxError("unexpected data after the JSON value") }
        return value
    }

    private mutating func parseValue() throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw syntaxError("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw syntaxError("unexpected character, expected a value")
        }
    }

    private mutating func parseObject() throws(JSONError) -> JSONValue {
        try enterContainer()
        index += 1
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw syntaxError("expected a member name in double quotes")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw syntaxError("expected ':' after the member name") }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            if try closes(with: "}", "object") { return .object(JSONObject(members)) }
        }
    }

    private mutating func parseArray() throws(JSONError) -> JSONValue {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            if try closes(with: "]", "array") { return .array(elements) }
        }
    }

    /// After a member or an element: a `,` goes on (`false`), `closing` ends the container
    /// (`true`), anything else is an error that names the container.
    private mutating func closes(with closing: Unicode.Scalar, _ container: String) throws(JSONError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw syntaxError("unexpected end of input inside an \(container)") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return false
        }
        guard bytes[index] == UInt8(ascii: closing) else { throw syntaxError("expected ',' or '\(closing)' in an \(container)") }
        index += 1
        depth -= 1
        return true
    }

    private mutating func enterContainer() throws(JSONError) {
        depth += 1
        if depth > maximumDepth {
            let (line, column) = position(of: index)
            throw .tooDeep(limit: maximumDepth, line: line, column: column)
        }
    }

    private mutating func parseString() throws(JSONError) -> String {
        let start = index
        index += 1
        // Fast path: no escapes, so the bytes are the string.
        var scan = index
        var isASCII = true
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let slice = bytes[index..<scan]
                index = scan + 1
                if isASCII { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validating: slice, as: UTF8.self) else {
                    index = start
                    throw syntaxError("the string is not valid UTF-8")
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                index = scan
                throw syntaxError("control character in a string; escape it")
            }
            if byte >= 0x80 { isASCII = false }
            scan += 1
        }
        guard scan < bytes.count else {
            index = start
            throw syntaxError("unterminated string")
        }
        return try parseEscapedString(from: start)
    }

    private mutating func parseEscapedString(from start: Int) throws(JSONError) -> String {
        var output: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: output, as: UTF8.self) else {
                    index = start
                    throw syntaxError("the string is not valid UTF-8")
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): output.append(0x22)
                case UInt8(ascii: "\\"): output.append(0x5C)
                case UInt8(ascii: "/"): output.append(0x2F)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    UTF8.encode(scalar) { output.append($0) }
                default:
                    index -= 2
                    throw syntaxError("invalid escape sequence")
                }
            case 0..<0x20:
                throw syntaxError("control character in a string; escape it")
            default:
                output.append(byte)
                index += 1
            }
        }
        index = start
        throw syntaxError("unterminated string")
    }

    /// Reads the hex digits after `\u`, combining a surrogate pair into one scalar.
    private mutating func parseUnicodeEscape() throws(JSONError) -> Unicode.Scalar {
        let escapeStart = index - 2
        let first = try readHex4(escapeStart: escapeStart)
        if (0xD800...0xDBFF).contains(first) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                index = escapeStart
                throw syntaxError("a high surrogate must be followed by a low surrogate")
            }
            index += 2
            let second = try readHex4(escapeStart: escapeStart)
            guard (0xDC00...0xDFFF).contains(second),
                let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
            else {
                index = escapeStart
                throw syntaxError("invalid surrogate pair")
            }
            return scalar
        }
        guard let scalar = Unicode.Scalar(first) else {
            index = escapeStart
            throw syntaxError("a lone low surrogate is not a character")
        }
        return scalar
    }

    private mutating func readHex4(escapeStart: Int) throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else {
            index = escapeStart
            throw syntaxError("\\u needs four hex digits")
        }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 0x41 + 10)
            default:
                index = escapeStart
                throw syntaxError("\\u needs four hex digits")
            }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private mutating func parseNumber() throws(JSONError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw syntaxError("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw syntaxError("numbers cannot have leading zeros") }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw syntaxError("expected a digit after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw syntaxError("expected a digit in the exponent") }
            skipDigits()
        }
        return JSONNumber(uncheckedText: String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let count = literal.utf8CodeUnitCount
        let matches = index + count <= bytes.count && (0..<count).allSatisfy { bytes[index + $0] == literal.utf8Start[$0] }
        guard matches else { throw syntaxError("unexpected character, expected a value") }
        index += count
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return (line, offset - lineStart + 1)
    }

    private func syntaxError(_ reason: String) -> JSONError {
        let offset = min(index, bytes.count)
        let (line, column) = position(of: offset)
        let excerptStart = max(0, offset - 20)
        let excerptEnd = min(bytes.count, offset + 20)
        var excerpt = String(decoding: bytes[excerptStart..<excerptEnd], as: UTF8.self)
            .replacingControlCharacters()
        if excerptStart > 0 { excerpt = "…" + excerpt }
        if excerptEnd < bytes.count { excerpt += "…" }
        return .syntax(reason: reason, line: line, column: column, offset: offset, excerpt: excerpt)
    }
}

extension String {
    /// Control characters shown as spaces, so an excerpt stays on one line.
    fileprivate func replacingControlCharacters() -> String {
        String(unicodeScalars.map { $0.value < 0x20 ? " " : Character($0) })
    }
}
