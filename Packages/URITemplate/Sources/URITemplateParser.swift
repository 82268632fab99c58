/// Turns template text into parts, following RFC 6570 §2's grammar byte by byte.
struct URITemplateParser {
    private let template: String
    private let bytes: [UInt8]
    private var index = 0

    init(_ template: String) {
        self.template = template
        bytes = Array(template.utf8)
    }

    mutating func parse() throws(URITemplateError) -> [URITemplate.Part] {
        var parts: [URITemplate.Part] = []
        var literal: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case .openBrace:
                if !literal.isEmpty {
                    parts.append(.literal(literal))
                    literal = []
                }
                parts.append(.expression(try parseExpression()))
            case .closeBrace:
                throw .unexpectedClosingBrace(offset: offset(index))
            case .percent:
                try requirePercentTriplet(at: index)
                literal.append(contentsOf: bytes[index..<index + 3])
                index += 3
            case 0x80...:
                // ucschar and iprivate are allowed and expand UTF-8 percent-encoded.
                URIEncoding.appendPercentEncoded(byte, to: &literal)
                index += 1
            default:
                guard URIEncoding.isLiteral(byte) else {
                    throw .invalidLiteral(Character(Unicode.Scalar(byte)), offset: offset(index))
                }
                literal.append(byte)
                index += 1
            }
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return parts
    }

    private mutating func parseExpression() throws(URITemplateError) -> URITemplate.Expression {
        let start = index
        index += 1
        guard index < bytes.count else { throw .unclosedExpression(offset: offset(start)) }
        if bytes[index] == .closeBrace { throw .emptyExpression(offset: offset(start)) }
        var operation = URITemplate.Operator.simple
        if let symbolic = URITemplate.Operator.forSymbol(bytes[index]) {
            operation = symbolic
            index += 1
        } else if "=,!@|".utf8.contains(bytes[index]) {
            throw .reservedOperator(Character(Unicode.Scalar(bytes[index])), offset: offset(index))
        }
        var variables: [URITemplate.VariableSpec] = []
        while true {
            variables.append(try parseVariableSpec(expressionStart: start))
            guard index < bytes.count else { throw .unclosedExpression(offset: offset(start)) }
            if bytes[index] == .closeBrace {
                index += 1
                return URITemplate.Expression(operation: operation, variables: variables)
            }
            // parseVariableSpec stops only at ',' or '}' (or throws).
            index += 1
        }
    }

    private mutating func parseVariableSpec(expressionStart: Int) throws(URITemplateError) -> URITemplate.VariableSpec {
        let nameStart = index
        var previousWasDot = true  // a name may not start with '.'
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .percent {
                try requirePercentTriplet(at: index)
                index += 3
                previousWasDot = false
            } else if URIEncoding.isVariableCharacter(byte) {
                index += 1
                previousWasDot = false
            } else if byte == .dot {
                if previousWasDot { throw invalidName(from: nameStart) }
                index += 1
                previousWasDot = true
            } else {
                break
            }
        }
        guard index < bytes.count else { throw .unclosedExpression(offset: offset(expressionStart)) }
        if index == nameStart || previousWasDot { throw invalidName(from: nameStart) }
        let nameBytes = Array(bytes[nameStart..<index])
        let name = String(decoding: nameBytes, as: UTF8.self)
        var prefix: Int?
        var explode = false
        switch bytes[index] {
        case .colon:
            let modifierStart = index
            index += 1
            let digitsStart = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            let digits = bytes[digitsStart..<index]
            guard (1...4).contains(digits.count), digits.first != 0x30,
                index < bytes.count, bytes[index] == .comma || bytes[index] == .closeBrace
            else { throw invalidPrefix(from: modifierStart) }
            prefix = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        case .asterisk:
            explode = true
            index += 1
        default:
            break
        }
        guard index < bytes.count else { throw .unclosedExpression(offset: offset(expressionStart)) }
        guard bytes[index] == .comma || bytes[index] == .closeBrace else {
            if bytes[index] == .asterisk || bytes[index] == .colon { throw invalidPrefix(from: nameStart) }
            throw invalidName(from: nameStart)
        }
        return URITemplate.VariableSpec(name: name, nameBytes: nameBytes, prefix: prefix, explode: explode)
    }

    private func requirePercentTriplet(at position: Int) throws(URITemplateError) {
        guard position + 2 < bytes.count, URIEncoding.isHexDigit(bytes[position + 1]),
            URIEncoding.isHexDigit(bytes[position + 2])
        else { throw .malformedPercentEncoding(offset: offset(position)) }
    }

    /// The offending name: from its start to the next ',' or '}' (or the end).
    private func invalidName(from start: Int) -> URITemplateError {
        let end = bytes[start...].firstIndex { $0 == .comma || $0 == .closeBrace } ?? bytes.count
        return .invalidVariableName(String(decoding: bytes[start..<end], as: UTF8.self), offset: offset(start))
    }

    private func invalidPrefix(from start: Int) -> URITemplateError {
        let end = bytes[start...].firstIndex { $0 == .comma || $0 == .closeBrace } ?? bytes.count
        return .invalidPrefix(String(decoding: bytes[start..<end], as: UTF8.self), offset: offset(start))
    }

    /// The character offset of a byte position; counted only when an error is reported.
    private func offset(_ byteIndex: Int) -> Int {
        let utf8 = template.utf8
        let target = utf8.index(utf8.startIndex, offsetBy: byteIndex)
        return template.distance(from: template.startIndex, to: target.samePosition(in: template) ?? target)
    }
}
