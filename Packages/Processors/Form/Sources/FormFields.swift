import JewzHTTPCore

/// Ordered name/value pairs of an `application/x-www-form-urlencoded` body; a name may repeat.
///
/// ```swift
/// var form: FormFields = ["q": "swift nio", "tag": "a"]
/// form.append("b", for: "tag")
/// print(form.encoded())     // "q=swift+nio&tag=a&tag=b"
/// print(try FormFields(decoding: "a=1&a=2").values(for: "a"))  // ["1", "2"]
/// ```
public struct FormFields: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field: a name and its value, as written before encoding.
    public struct Field: Sendable, Equatable {
        /// The field's name.
        public var name: String
        /// The field's value.
        public var value: String
    }

    /// The fields in order, repeated names included.
    public private(set) var fields: [Field]

    /// Fields from name/value pairs, in their order.
    public init(_ pairs: some Sequence<(String, String)>) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Fields from a value, nested fields written `user[name]`, lists as `listStyle` says.
    public init(_ value: FormValue, listStyle: FormValue.ListStyle = .repeatedName) {
        var pairs: [(String, String)] = []
        value.flattened(name: "", listStyle: listStyle, into: &pairs)
        self.init(pairs)
    }

    /// Fields from a literal, in its order; nested values and lists written as
    /// ``FormValue/ListStyle/repeatedName`` says.
    public init(dictionaryLiteral elements: (String, FormValue)...) {
        self.init(.fields(elements.map { (name: $0.0, value: $0.1) }))
    }

    /// The first value of `name`.
    public subscript(name: String) -> String? { fields.first { $0.name == name }?.value }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// Adds a field `name` with `value` after the others.
    public mutating func append(_ value: String, for name: String) { fields.append(Field(name: name, value: value)) }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }
    /// The fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// How names and values are percent-encoded.
    public enum Encoding: Sendable {
        /// WHATWG `application/x-www-form-urlencoded`: space as `+`, only `A-Z a-z 0-9 * - . _`
        /// kept. For request bodies.
        case form
        /// RFC 3986 query components: space as `%20`, unreserved characters kept — the same
        /// encoding HTTPCore's query merging uses.
        case query
    }

    /// The fields as `name=value` pairs joined by `&`.
    public func encoded(_ encoding: Encoding = .form) -> String {
        fields.map { field in
            switch encoding {
            case .form:
                PercentEncoding.encode(field.name, allowing: .formURLEncoded, spaceAsPlus: true) + "="
                    + PercentEncoding.encode(field.value, allowing: .formURLEncoded, spaceAsPlus: true)
            case .query:
                PercentEncoding.encode(field.name) + "=" + PercentEncoding.encode(field.value)
            }
        }.joined(separator: "&")
    }

    /// Reads an encoded form (or query string): `+` is a space, `%XX` a byte; empty pieces
    /// between `&`s are skipped, and a piece without `=` is a name with an empty value.
    ///
    /// - Throws: ``FormError/invalidEncoding(field:offset:)`` for a malformed `%` escape or
    ///   bytes that are not UTF-8.
    public init(decoding text: some StringProtocol) throws(FormError) {
        // Piece by piece, without splitting the whole text first: a body of 40 MiB of `&`
        // would otherwise hold an array of 40 million empty pieces.
        let text = String(text)
        let bytes = text.utf8
        var fields: [Field] = []
        var index = bytes.startIndex
        var offset = 0
        while index < bytes.endIndex {
            let end = bytes[index...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            let length = bytes.distance(from: index, to: end)
            if length > 0 {
                let equals = bytes[index..<end].firstIndex(of: UInt8(ascii: "=")) ?? end
                let name = Substring(bytes[index..<equals])
                let value = equals < end ? Substring(bytes[bytes.index(after: equals)..<end]) : ""
                guard let decodedName = PercentEncoding.decode(name, plusAsSpace: true),
                    let decodedValue = PercentEncoding.decode(value, plusAsSpace: true)
                else { throw .invalidEncoding(field: String(name), offset: offset) }
                fields.append(Field(name: decodedName, value: decodedValue))
            }
            offset += length + 1
            index = end < bytes.endIndex ? bytes.index(after: end) : end
        }
        self.fields = fields
    }
}
