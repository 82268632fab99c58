/// A value to send in a form: text, a list (repeated fields), or nested fields (`user[name]`).
///
/// Literals read naturally: `["user": ["name": "Ada", "langs": ["en", "fr"]], "remember": true]`.
public indirect enum FormValue: Sendable, Equatable, ExpressibleByStringInterpolation,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A single value.
    case text(String)
    /// A list, written as fields of one name (or as the list style says).
    case list([FormValue])
    /// Nested fields, written `parent[name]`.
    case fields([(name: String, value: FormValue)])

    /// Text from a string literal.
    public init(stringLiteral value: String) { self = .text(value) }
    /// Text from an integer literal.
    public init(integerLiteral value: Int) { self = .text(String(value)) }
    /// Text from a floating-point literal.
    public init(floatLiteral value: Double) { self = .text(String(value)) }
    /// `true` or `false` from a literal.
    public init(booleanLiteral value: Bool) { self = .text(String(value)) }
    /// A list from an array literal.
    public init(arrayLiteral elements: FormValue...) { self = .list(elements) }
    /// Nested fields from a literal, in its order.
    public init(dictionaryLiteral elements: (String, FormValue)...) { self = .fields(elements.map { (name: $0.0, value: $0.1) }) }

    /// Whether both are the same value, nested fields compared in order.
    public static func == (lhs: FormValue, rhs: FormValue) -> Bool {
        switch (lhs, rhs) {
        case (.text(let a), .text(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.fields(let a), .fields(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.name == $1.name && $0.value == $1.value }
        default: false
        }
    }

    /// How lists are written.
    public enum ListStyle: Sendable {
        /// `tag=a&tag=b`, what most servers and HTML forms expect.
        case repeatedName
        /// `tag[]=a&tag[]=b`, what Rails and PHP expect.
        case brackets
        /// `tag[0]=a&tag[1]=b`.
        case indexed
    }

    /// The flat fields this value stands for under `name`; nested fields use `name[key]`.
    func flattened(name: String, listStyle: ListStyle, into fields: inout [(String, String)]) {
        switch self {
        case .text(let text):
            fields.append((name, text))
        case .list(let items):
            for (index, item) in items.enumerated() {
                let itemName: String
                switch listStyle {
                case .repeatedName: itemName = name
                case .brackets: itemName = "\(name)[]"
                case .indexed: itemName = "\(name)[\(index)]"
                }
                item.flattened(name: itemName, listStyle: listStyle, into: &fields)
            }
        case .fields(let members):
            for member in members {
                let memberName = name.isEmpty ? member.name : "\(name)[\(member.name)]"
                member.value.flattened(name: memberName, listStyle: listStyle, into: &fields)
            }
        }
    }
}
