import Foundation

extension JSONValue {
    /// A JSON value from plain Swift values: `String`, integers, `Double`, `Bool`, `nil`,
    /// `JSONValue`, and arrays and `[String: …]` dictionaries of those (dictionary keys sorted,
    /// since a dictionary has no order of its own).
    ///
    /// - Throws: ``JSONError/unsupportedValue(type:)`` or ``JSONError/nonFiniteNumber``.
    public init(converting value: Any?) throws(JSONError) {
        switch value {
        case nil, is NSNull: self = .null
        case let value as JSONValue: self = value
        case let value as String: self = .string(value)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .number(JSONNumber(value))
        case let value as any BinaryInteger: self = .number(JSONNumber(uncheckedText: String(describing: value)))
        case let value as Double:
            guard let number = JSONNumber(value) else { throw .nonFiniteNumber }
            self = .number(number)
        case let value as Float:
            guard let number = JSONNumber(Double(value)) else { throw .nonFiniteNumber }
            self = .number(number)
        case let array as [Any?]:
            var elements: [JSONValue] = []
            elements.reserveCapacity(array.count)
            for element in array { elements.append(try JSONValue(converting: element)) }
            self = .array(elements)
        case let dictionary as [String: Any?]:
            var members: [(String, JSONValue)] = []
            for key in dictionary.keys.sorted() {
                members.append((key, try JSONValue(converting: dictionary[key] ?? nil)))
            }
            self = .object(JSONObject(members))
        case let value?:
            throw .unsupportedValue(type: String(describing: type(of: value)))
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int.self) {
            self = .number(JSONNumber(integer))
        } else if let double = try? container.decode(Double.self) {
            self = JSONNumber(double).map(JSONValue.number) ?? .null
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            let dictionary = try container.decode([String: JSONValue].self)
            self = .object(JSONObject(dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number):
            if let integer = Int(number.text) { try container.encode(integer) } else { try container.encode(number.double) }
        case .string(let string): try container.encode(string)
        case .array(let elements): try container.encode(elements)
        case .object(let object):
            try container.encode(Dictionary(object.members.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }))
        }
    }
}
