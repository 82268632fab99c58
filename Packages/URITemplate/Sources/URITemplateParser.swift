/// Turns template text into parts, following RFC 6570 §2's grammar byte by byte.
///
/// Literal bytes and variables go into two flat arrays that the parts refer to by range, so a
/// typical template costs a handful of allocations to parse.
struct URITemplateParser {
    private let template: String
    private(set) var parts: [URITemplate.Part] = []
    private(set) var literalBytes: [UInt8] = []
    private(set) var variables: [URITemplate.VariableSpec] = []

    init(_ template: String) {
        self.template = template
    }

    mutating func parse() throws(URITemplateError) {
        var text = template
        let result: Result<Void, URITemplateError> = text.withUTF8 { bytes in
            var cursor = Cursor(bytes: bytes)
            do throws(URITemplateError) {
                try parse(&cursor)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// The template's bytes and the position being read.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
    }

    private mutating func parse(_ cursor: inout Cursor) throws(URITemplateError) {
        let bytes = cursor.bytes
        // Size the arrays once: at most a literal around each expression, and a variable per
        // comma or opening brace.
        var braces = 0
        var commas = 0
        for byte in bytes {
            if byte == .openBrace { braces += 1 } else if byte == .comma { commas += 1 }
        }
        parts.reserveCapacity(2 * braces + 1)
        variables.reserveCapacity(braces + commas)
        literalBytes.reserveCapacity(bytes.count)
        var literalStart = 0
        while cursor.index < bytes.count {
            let byte = bytes[cursor.index]
            switch byte {
            case .openBrace:
                if literalBytes.count > literalStart { parts.append(.literal(literalStart..<literalBytes.count)) }
                parts.append(.expression(try parseExpression(&cursor)))
                literalStart = literalBytes.count
            case .closeBrace:
                throw .unexpectedClosingBrace(offset: offset(cursor.index))
            case .percent:
                try requirePercentTriplet(cursor, at: cursor.index)
                literalBytes.append(contentsOf: bytes[cursor.index..<cursor.index + 3])
                cursor.index += 3
            case 0x80...:
                // ucschar and iprivate are allowed and expand UTF-8 percent-encoded.
                URIEncoding.appendPercentEncoded(byte, to: &literalBytes)
                cursor.index += 1
            default:
                guard URIEncoding.isLiteral(byte) else {
                    throw .invalidLiteral(Character(Unicode.Scalar(byte)), offset: offset(cursor.index))
                }
                literalBytes.append(byte)
                cursor.index += 1
            }
        }
        if literalBytes.count > literalStart { parts.append(.literal(literalStart..<literalBytes.count)) }
    }

    private mutating func parseExpression(_ cursor: inout Cursor) throws(URITemplateError) -> URITemplate.Expression {
        let bytes = cursor.bytes
        let start = cursor.index
        cursor.index += 1
        guard cursor.index < bytes.count else { throw .unclosedExpression(offset: offset(start)) }
        if bytes[cursor.index] == .closeBrace { throw .emptyExpression(offset: offset(start)) }
        var operation = URITemplate.Operator.simple
        if let symbolic = URITemplate.Operator.forSymbol(bytes[cursor.index]) {
            operation = symbolic
            cursor.index += 1
        } else if "=,!@|".utf8.contains(bytes[cursor.index]) {
            throw .reservedOperator(Character(Unicode.Scalar(bytes[cursor.index])), offset: offset(cursor.index))
        }
        let firstVariable = variables.count
        while true {
            variables.append(try parseVariableSpec(&cursor, expressionStart: start))
            // parseVariableSpec stops only at ',' or '}' (or throws).
            if bytes[cursor.index] == .closeBrace {
                cursor.index += 1
                return URITemplate.Expression(operation: operation, variables: firstVariable..<variables.count)
            }
            cursor.index += 1
        }
    }

    private func parseVariableSpec(_ cursor: inout Cursor, expressionStart: Int) throws(URITemplateError) -> URITemplate.VariableSpec {
        let bytes = cursor.bytes
        let nameStart = cursor.index
        var previousWasDot = true  // a name may not start with '.'
        while cursor.index < bytes.count {
            let byte = bytes[cursor.index]
            if byte == .percent {
                try requirePercentTriplet(cursor, at: cursor.index)
                cursor.index += 3
                previousWasDot = false
            } else if URIEncoding.isVariableCharacter(byte) {
                cursor.index += 1
                previousWasDot = false
            } else if byte == .dot {
                if previousWasDot { throw invalidName(cursor, from: nameStart) }
                cursor.index += 1
                previousWasDot = true
            } else {
                break
            }
        }
        guard cursor.index < bytes.count else { throw .unclosedExpression(offset: offset(expressionStart)) }
        if cursor.index == nameStart || previousWasDot { throw invalidName(cursor, from: nameStart) }
        let name = String(decoding: bytes[nameStart..<cursor.index], as: UTF8.self)
        var prefix: Int?
        var explode = false
        switch bytes[cursor.index] {
        case .colon:
            let modifierStart = cursor.index
            cursor.index += 1
            let digitsStart = cursor.index
            while cursor.index < bytes.count, (0x30...0x39).contains(bytes[cursor.index]) { cursor.index += 1 }
            let digits = bytes[digitsStart..<cursor.index]
            guard (1...4).contains(digits.count), digits.first != 0x30,
                cursor.index < bytes.count, bytes[cursor.index] == .comma || bytes[cursor.index] == .closeBrace
            else { throw invalidModifier(cursor, from: modifierStart) }
            prefix = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        case .asterisk:
            explode = true
            cursor.index += 1
        default:
            break
        }
        guard cursor.index < bytes.count else { throw .unclosedExpression(offset: offset(expressionStart)) }
        guard bytes[cursor.index] == .comma || bytes[cursor.index] == .closeBrace else {
            if bytes[cursor.index] == .asterisk || bytes[cursor.index] == .colon { throw invalidModifier(cursor, from: nameStart) }
            throw invalidName(cursor, from: nameStart)
        }
        return URITemplate.VariableSpec(name: name, prefix: prefix, explode: explode)
    }

    private func requirePercentTriplet(_ cursor: Cursor, at position: Int) throws(URITemplateError) {
        let bytes = cursor.bytes
        guard position + 2 < bytes.count, URIEncoding.isHexDigit(bytes[position + 1]), URIEncoding.isHexDigit(bytes[position + 2]) else {
            throw .malformedPercentEncoding(offset: offset(position))
        }
    }

    /// The offending name: from its start to the next ',' or '}' (or the end).
    private func invalidName(_ cursor: Cursor, from start: Int) -> URITemplateError {
        .invalidVariableName(String(decoding: cursor.bytes[start..<pieceEnd(cursor, from: start)], as: UTF8.self), offset: offset(start))
    }

    private func invalidModifier(_ cursor: Cursor, from start: Int) -> URITemplateError {
        .invalidPrefix(String(decoding: cursor.bytes[start..<pieceEnd(cursor, from: start)], as: UTF8.self), offset: offset(start))
    }

    private func pieceEnd(_ cursor: Cursor, from start: Int) -> Int {
        cursor.bytes[start...].firstIndex { $0 == .comma || $0 == .closeBrace } ?? cursor.bytes.count
    }

    /// The character offset of a byte position; counted only when an error is reported.
    private func offset(_ byteIndex: Int) -> Int {
        let utf8 = template.utf8
        let target = utf8.index(utf8.startIndex, offsetBy: byteIndex)
        return template.distance(from: template.startIndex, to: target.samePosition(in: template) ?? target)
    }
}
