import Foundation
import JewzHTTPCore

// The Foundation form of a document, as `JSONSerialization` reads and writes it, for code that
// casts (`as? [String: Any]`); ``JSONValue/init(converting:)`` takes it back.
extension JSONValue {
    /// The value as `JSONSerialization.jsonObject(with:)` gives it: `[String: Any]`, `[Any]`,
    /// `String`, `Bool`, `NSNull`, and numbers kept exact where they fit — `Int` for an integer
    /// that fits, `Decimal` for a longer one (up to 38 digits), `Double` otherwise.
    ///
    /// Object members lose their order (a Swift dictionary has none); a repeated key keeps
    /// its last value.
    public var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let flag): flag
        case .number(let number): number.foundationNumber
        case .string(let string): string
        case .array(let elements): elements.map(\.foundationObject)
        case .object(let object):
            Dictionary(object.members.map { ($0.key, $0.value.foundationObject) }, uniquingKeysWith: { _, last in last })
        }
    }

    /// An object as `[String: Any]` (see ``foundationObject``); `nil` for anything else.
    public var foundationDictionary: [String: Any]? {
        if case .object = self { foundationObject as? [String: Any] } else { nil }
    }

    /// An array as `[Any]` (see ``foundationObject``); `nil` for anything else.
    public var foundationArray: [Any]? {
        if case .array(let elements) = self { elements.map(\.foundationObject) } else { nil }
    }
}

extension JSONNumber {
    /// `Int` when the number is an integer that fits, `Decimal` for a longer integer of up to 38
    /// digits (exact), `Double` otherwise.
    var foundationNumber: Any {
        if let int = Int(text) { return int }
        let isInteger = !text.contains { $0 == "." || $0 == "e" || $0 == "E" }
        let digits = text.filter(\.isNumber).count
        if isInteger, digits <= 38, let decimal = Decimal(string: text) { return decimal }
        return double
    }
}

extension HTTPResponse {
    /// The parsed JSON body in Foundation's form, as `JSONSerialization` gives it
    /// (``JSONValue/foundationObject``): for code written against `[String: Any]`.
    ///
    /// ```swift
    /// let user = try await HTTPCycle.get(url).jsonObject as? [String: Any]
    /// ```
    public var jsonObject: Any? { json?.foundationObject }
}
