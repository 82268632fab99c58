/// An ordered list of HTTP header fields with case-insensitive, multi-valued lookup.
///
/// Field order and the spelling of names are kept as given, so a request goes out exactly as
/// written. Lookups compare names ASCII case-insensitively, as RFC 9110 §5.1 requires.
///
/// ```swift
/// var headers: HTTPHeaderFields = ["Accept": "application/json"]
/// headers.add("a=1", for: "Cookie")
/// let accept = headers["accept"]   // "application/json"
/// ```
public struct HTTPHeaderFields: Sendable, Hashable, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header line: a name and its value.
    public struct Field: Sendable, Hashable {
        /// The field's name, as it was given (names compare case-insensitively).
        public var name: String
        /// The field's value.
        public var value: String

        package init(name: String, value: String) {
            (self.name, self.value) = (name, value)
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field]

    /// Whether `name` can be a field name: a token (RFC 9110 §5.1), as a request checks
    /// before it is sent. For checks made earlier, such as a service profile's.
    package static func isValidName(_ name: String) -> Bool {
        name.isHTTPToken
    }

    /// Whether `value` can be a field value: no CR, LF or NUL.
    package static func isValidValue(_ value: String) -> Bool {
        value.isValidHeaderValue
    }

    /// Whether these fields are `other`'s own storage, unchanged since one was copied from the
    /// other: a check in constant time that they need not be validated again.
    func sharesStorage(with other: HTTPHeaderFields) -> Bool {
        fields.withUnsafeBufferPointer { mine in other.fields.withUnsafeBufferPointer { mine.baseAddress == $0.baseAddress } }
            && fields.count == other.fields.count
    }

    /// Creates an empty list.
    public init() {
        fields = []
    }

    /// Creates a list from name/value pairs, keeping their order and repetitions.
    public init(_ pairs: some Sequence<(String, String)>) {
        fields = []
        fields.reserveCapacity(pairs.underestimatedCount)
        for (name, value) in pairs {
            fields.append(Field(name: name, value: value))
        }
    }

    /// Fields from a literal such as `["Accept": "application/json"]`, in its order.
    public init(dictionaryLiteral elements: (String, String)...) {
        // `[:]`, every call's default, takes no storage.
        fields = elements.isEmpty ? [] : elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The values of a field, combined as RFC 9110 §5.3 allows (`", "`-separated), or `nil`.
    ///
    /// Setting a value replaces every field of that name; setting `nil` removes them.
    /// Use ``values(for:)`` for fields such as `Set-Cookie` that must not be combined.
    public subscript(name: String) -> String? {
        get {
            var result: String?
            // By index: iterating copied every field, 48 of a plain request's 374 lookup instructions.
            for index in fields.indices where fields[index].name.equalsCaseInsensitively(name) {
                let value = fields[index].value
                result = result.map { "\($0), \(value)" } ?? value
            }
            return result
        }
        set {
            if let newValue {
                set(newValue, for: name)
            } else {
                remove(name)
            }
        }
    }

    /// Every value of the fields with this name, in order.
    public func values(for name: String) -> [String] {
        fields.lazy.filter { $0.name.equalsCaseInsensitively(name) }.map(\.value)
    }

    /// Whether at least one field has this name.
    public func contains(_ name: String) -> Bool {
        fields.indices.contains { fields[$0].name.equalsCaseInsensitively(name) }
    }

    /// Appends a field, keeping the fields already there under the same name.
    public mutating func add(_ value: String, for name: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of this name by one field, at the place of the first.
    public mutating func set(_ value: String, for name: String) {
        if let first = fields.firstIndex(where: { $0.name.equalsCaseInsensitively(name) }) {
            fields[first] = Field(name: fields[first].name, value: value)
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if fields[index].name.equalsCaseInsensitively(name) {
                    fields.remove(at: index)
                } else {
                    index = fields.index(after: index)
                }
            }
        } else {
            fields.append(Field(name: name, value: value))
        }
    }

    /// Removes every field of this name.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.equalsCaseInsensitively(name) }
    }

    /// Adds each field of `other` whose name is not present here yet.
    package mutating func addMissing(from other: HTTPHeaderFields) {
        // Nothing to merge with: share `other`'s storage instead of copying it field by field
        // (most requests set no headers and take the session's).
        guard !fields.isEmpty else {
            fields = other.fields
            return
        }
        fields.reserveCapacity(fields.count + other.fields.count)
        for field in other.fields where !contains(field.name) {
            fields.append(field)
        }
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The fields as header lines, `Name: value`, one a line, the values of the fields that
    /// carry credentials (``isCredentialField(_:)``) shown as `<redacted>`: a log line or a
    /// printed request shows no secret. Read ``fields`` for the values themselves.
    public var description: String {
        redactingCredentials().fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// Whether a field named `name` carries a credential: `Authorization`,
    /// `Proxy-Authorization`, `Cookie`, `Set-Cookie` or `X-Amz-Security-Token`.
    public static func isCredentialField(_ name: String) -> Bool {
        credentialFieldNames.contains { $0.equalsCaseInsensitively(name) }
    }

    private static let credentialFieldNames = ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Amz-Security-Token"]

    /// These fields with the values of those that carry credentials replaced by `<redacted>`.
    public func redactingCredentials() -> HTTPHeaderFields {
        var copy = self
        for index in copy.fields.indices where Self.isCredentialField(copy.fields[index].name) {
            copy.fields[index].value = "<redacted>"
        }
        return copy
    }
}

extension HTTPHeaderFields: CustomReflectable {
    /// The fields as `dump` and the debugger show them: credentials redacted, as in
    /// ``description``.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: redactingCredentials().fields.map { "\($0.name): \($0.value)" }, displayStyle: .collection)
    }
}

extension HTTPHeaderFields: Sequence {
    /// The fields in order, repeated names one by one.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}
