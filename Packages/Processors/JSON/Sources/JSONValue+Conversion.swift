import Foundation

extension JSONValue {
    /// A JSON value from plain Swift values: `String`, integers, `Double`, `Decimal`, `Bool`,
    /// `nil`, `NSNull`, `JSONValue`, and arrays and `[String: …]` dictionaries of those
    /// (dictionary keys sorted, since a dictionary has no order of its own). What
    /// `JSONSerialization` makes (`NSNumber`s among them) converts back exactly, `1` staying a
    /// number and `true` a Boolean; ``foundationObject`` is the way there.
    ///
    /// - Throws: ``JSONError/unsupportedValue(type:)`` or ``JSONError/nonFiniteNumber``.
    public init(converting value: Any?) throws(JSONError) {
        // Foundation's boxed numbers first: cast to Bool, an NSNumber 1 would pass for `true`.
        if let value, let number = value as? NSNumber, type(of: value) is NSNumber.Type {
            self = try Self(number)
            return
        }
        switch value {
        case nil, is NSNull: self = .null
        case let value as JSONValue: self = value
        case let value as Decimal:
            guard let number = JSONNumber(text: value.description) else { throw .nonFiniteNumber }
            self = .number(number)
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
    /// Reads any JSON a decoder holds: `JSONValue` as a `Codable` property keeps what a type does
    /// not model.
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

    /// Writes the value as the JSON it is.
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

extension JSONValue {
    /// A number `JSONSerialization` made: a Boolean (its `c` type), an integer, a double, or
    /// a decimal (which it makes of integers just past `Int`'s range).
    private init(_ number: NSNumber) throws(JSONError) {
        if let decimal = number as? NSDecimalNumber {
            guard let exact = JSONNumber(text: decimal.decimalValue.description) else { throw .nonFiniteNumber }
            self = .number(exact)
            return
        }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "c"), UInt8(ascii: "B"): self = .bool(number.boolValue)
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            guard let converted = JSONNumber(number.doubleValue) else { throw .nonFiniteNumber }
            self = .number(converted)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            self = .number(JSONNumber(uncheckedText: String(number.uint64Value)))
        default: self = .number(JSONNumber(uncheckedText: String(number.int64Value)))
        }
    }
}
