/// A parsed JSON document that needs no casts: `json["items"][0]["name"].string`.
///
/// Objects keep their members in document order. Reading a member or element that is not
/// there gives ``null``; use ``JSONObject/contains(_:)`` to tell a missing key from a `null`.
public enum JSONValue: Sendable, Equatable, Hashable, CustomStringConvertible,
    ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByNilLiteral
{
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = JSONNumber(value).map(JSONValue.number) ?? .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }

    /// The member named `key` of an object; ``null`` for anything else or a missing key.
    public subscript(key: String) -> JSONValue {
        if case .object(let object) = self { return object[key] ?? .null }
        return .null
    }

    /// The element at `index` of an array; ``null`` for anything else or an index out of range.
    public subscript(index: Int) -> JSONValue {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return .null
    }

    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var number: JSONNumber? { if case .number(let value) = self { value } else { nil } }
    public var int: Int? { number?.int }
    public var double: Double? { number?.double }
    public var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    public var object: JSONObject? { if case .object(let value) = self { value } else { nil } }
    public var isNull: Bool { self == .null }

    /// Compact JSON text.
    public var description: String { JSONWriter.string(for: self, pretty: false) }
}

/// A JSON object's members in document order. Lookups scan the members, which is fast for the
/// object sizes APIs return; a repeated key resolves to its last value, as most parsers do.
public struct JSONObject: Sendable, Equatable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    public typealias Member = (key: String, value: JSONValue)

    public private(set) var members: [Member]

    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.members = members.map { (key: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The value of `key`; setting `nil` removes the member, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { members.last { $0.key == key }?.value }
        set {
            if let newValue {
                if let index = members.lastIndex(where: { $0.key == key }) {
                    members[index].value = newValue
                } else {
                    members.append((key, newValue))
                }
            } else {
                members.removeAll { $0.key == key }
            }
        }
    }

    public func contains(_ key: String) -> Bool { members.contains { $0.key == key } }
    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}
