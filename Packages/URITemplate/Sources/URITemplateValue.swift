extension URITemplate {
    /// A variable's value: a string, a list, or an associative array whose pairs keep the
    /// caller's order (RFC 6570's examples depend on it).
    ///
    /// Numbers and booleans become their decimal or `true`/`false` text. Literals read
    /// naturally: `["q": "cats", "page": 2, "tags": ["a", "b"], "keys": ["semi": ";"]]`.
    /// A list or map nested inside another expands as its unexploded form (`a,b`).
    public enum Value: Sendable, Equatable, ExpressibleByStringInterpolation,
        ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
        ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
    {
        /// A single value.
        case string(String)
        /// A list of values.
        case list([String])
        /// Key/value pairs, in order.
        case associative([(key: String, value: String)])

        /// A single value from a string literal.
        public init(stringLiteral value: String) { self = .string(value) }
        /// A single value from an integer literal.
        public init(integerLiteral value: Int) { self = .string(String(value)) }
        /// A single value from a floating-point literal.
        public init(floatLiteral value: Double) { self = .string(String(value)) }
        /// `true` or `false`.
        public init(booleanLiteral value: Bool) { self = .string(String(value)) }
        /// A list from an array literal.
        public init(arrayLiteral elements: Value...) { self = .list(elements.map(\.flattened)) }

        /// Key/value pairs from a literal, in its order.
        public init(dictionaryLiteral elements: (String, Value)...) {
            self = .associative(elements.map { (key: $0.0, value: $0.1.flattened) })
        }

        /// An associative array from ordered pairs.
        public init(_ pairs: some Sequence<(String, String)>) {
            self = .associative(pairs.map { (key: $0.0, value: $0.1) })
        }

        /// Whether RFC 6570 §2.3 counts the value as undefined: an empty list or map.
        var isUndefined: Bool {
            switch self {
            case .string: false
            case .list(let items): items.isEmpty
            case .associative(let pairs): pairs.isEmpty
            }
        }

        /// The text of a value nested in a composite: its unexploded simple expansion, unencoded.
        var flattened: String {
            switch self {
            case .string(let string): string
            case .list(let items): items.joined(separator: ",")
            case .associative(let pairs): pairs.map { "\($0.key),\($0.value)" }.joined(separator: ",")
            }
        }

        /// Whether both are the same value, pairs compared in order.
        public static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.string(let a), .string(let b)): a == b
            case (.list(let a), .list(let b)): a == b
            case (.associative(let a), .associative(let b)):
                a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
            default: false
            }
        }
    }
}
