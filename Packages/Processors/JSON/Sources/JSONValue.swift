/// A parsed JSON document that needs no casts: `json["items"][0]["name"].string`.
///
/// Objects keep their members in document order. Reading a member or element that is not
/// there gives ``null``; use ``JSONObject/contains(_:)`` to tell a missing key from a `null`.
public enum JSONValue: Sendable, Equatable, Hashable, CustomStringConvertible,
    ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByNilLiteral
{
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its text: nothing is lost to `Double`.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in document order.
    case object(JSONObject)

    /// A string from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A number from an integer literal.
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    /// A number from a floating-point literal (`null` for a value JSON cannot write).
    public init(floatLiteral value: Double) { self = JSONNumber(value).map(JSONValue.number) ?? .null }
    /// `true` or `false` from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array from a literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object from a literal, in its order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    /// `null` from `nil`.
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

    /// The string, when the value is one.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The boolean, when the value is one.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The number, when the value is one.
    public var number: JSONNumber? { if case .number(let value) = self { value } else { nil } }
    /// The number as an `Int`, when it is an integer that fits.
    public var int: Int? { number?.int }
    /// The number as a `Double` (the nearest one).
    public var double: Double? { number?.double }
    /// The elements, when the value is an array.
    public var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    /// The members, when the value is an object.
    public var object: JSONObject? { if case .object(let value) = self { value } else { nil } }
    /// Whether the value is `null`.
    public var isNull: Bool { self == .null }

    /// Compact JSON text.
    public var description: String { JSONWriter.string(for: self, pretty: false) }
}

/// A JSON object's members in document order. Lookups scan the members, which is fast for the
/// object sizes APIs return; a repeated key resolves to its last value, as most parsers do.
public struct JSONObject: Sendable, Equatable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// A member: its key and its value.
    public typealias Member = (key: String, value: JSONValue)

    /// The members in document order, repeated keys included.
    public private(set) var members: [Member]

    /// An object of `members`, in their order.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.members = members.map { (key: $0.0, value: $0.1) }
    }

    /// An object from a literal, in its order.
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

    /// Whether a member has `key`.
    public func contains(_ key: String) -> Bool { members.contains { $0.key == key } }
    /// The keys in document order.
    public var keys: [String] { members.map(\.key) }
    /// How many members there are.
    public var count: Int { members.count }
    /// The members in document order.
    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }

    /// Whether both have the same members in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the members in order.
    public func hash(into hasher: inout Hasher) {
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}
