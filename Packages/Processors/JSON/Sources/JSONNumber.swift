/// A JSON number, kept as the text it was written with, so that integers beyond 2⁵³ and exact
/// decimals survive a round trip. Convert when you read it.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    /// The number as JSON text (`-12`, `3.5e10`).
    public let text: String

    /// A number from JSON text; `nil` when the text is not a JSON number.
    public init?(text: String) {
        var parser = JSONParser(bytes: Array(text.utf8), maximumDepth: 1)
        guard case .number(let number)? = try? parser.parseDocument() else { return nil }
        self = number
    }

    init(uncheckedText text: String) {
        self.text = text
    }

    /// The integer `value`.
    public init(_ value: Int) { text = String(value) }

    /// A number from a finite `Double`, written in its shortest round-tripping form.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), abs(value) < 1e15 {
            text = String(Int64(value))
        } else {
            text = String(value)
        }
    }

    /// The integer from a literal.
    public init(integerLiteral value: Int) { self.init(value) }
    /// The number from a floating-point literal.
    public init(floatLiteral value: Double) { text = String(value) }

    /// The value as an `Int`, when it is an integer that fits.
    public var int: Int? { Int(text) ?? Double(text).flatMap { $0 == $0.rounded() ? Int(exactly: $0) : nil } }
    /// The value as a `Double` (the nearest one).
    public var double: Double { Double(text) ?? .nan }

    /// The number's JSON text.
    public var description: String { text }

    /// Whether both are the same number: `1.5` equals `1.50`; an integer equals only an integer.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        lhs.text == rhs.text || (Double(lhs.text) == Double(rhs.text) && Int(lhs.text) == Int(rhs.text))
    }

    /// Hashes the value, which equal numbers share.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(double)
    }
}
