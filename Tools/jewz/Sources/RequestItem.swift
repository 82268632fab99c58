import Foundation

/// One httpie-style request item: `Header:Value`, `name==query`, `name=value` (a string
/// field), `name:=json` (a raw JSON field).
enum RequestItem: Equatable {
    case header(name: String, value: String)
    case query(name: String, value: String)
    case field(name: String, value: String)
    case jsonField(name: String, json: String)

    /// The separators, longest first so that `==` and `:=` win over `=` and `:` at one place.
    private static let separators = ["==", ":=", "=", ":"]

    /// Parses an item; the separator that occurs first in the text decides its kind.
    ///
    /// - Throws: `RequestItemError` when there is no separator, the name is empty, or a
    ///   `:=` value is not JSON.
    init(_ text: String) throws {
        var best: (range: Range<String.Index>, separator: String)?
        for separator in Self.separators {
            guard let range = text.range(of: separator) else { continue }
            if let current = best, current.range.lowerBound <= range.lowerBound { continue }
            best = (range, separator)
        }
        guard let best else { throw RequestItemError.noSeparator(text) }
        let name = String(text[..<best.range.lowerBound])
        let value = String(text[best.range.upperBound...])
        guard !name.isEmpty else { throw RequestItemError.emptyName(text) }
        switch best.separator {
        case "==": self = .query(name: name, value: value)
        case ":=":
            guard (try? JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)) != nil else {
                throw RequestItemError.invalidJSON(name: name, value: value)
            }
            self = .jsonField(name: name, json: value)
        case "=": self = .field(name: name, value: value)
        default: self = .header(name: name, value: value.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The items' fields as one JSON object, in the order given.
    static func jsonBody(_ items: [RequestItem]) -> String? {
        let members = items.compactMap { item -> String? in
            switch item {
            case .field(let name, let value): "\(jsonString(name)): \(jsonString(value))"
            case .jsonField(let name, let json): "\(jsonString(name)): \(json)"
            default: nil
            }
        }
        return members.isEmpty ? nil : "{" + members.joined(separator: ", ") + "}"
    }

    /// A JSON string literal for `text` (RFC 8259 §7).
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

enum RequestItemError: Error, CustomStringConvertible {
    case noSeparator(String)
    case emptyName(String)
    case invalidJSON(name: String, value: String)

    var description: String {
        switch self {
        case .noSeparator(let text):
            "'\(text)' is not a request item: use Header:Value, name==query, name=value or name:=json."
        case .emptyName(let text):
            "'\(text)' has no name before its separator."
        case .invalidJSON(let name, let value):
            "'\(name):=\(value)': the value after := must be JSON, such as 42, true, [1,2] or {\"a\":1}."
        }
    }
}
