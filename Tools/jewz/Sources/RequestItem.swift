import Foundation
import Jewzruxin

/// One httpie-style request item: `Header:Value`, `name==query`, `name=value` (a string
/// field), `name:=json` (a raw JSON field), `name@path` (a file, sent as multipart),
/// `name=@path` and `name:=@path` (a field's text or JSON read from a file), `@path` (the file
/// as the whole body).
enum RequestItem: Equatable {
    case header(name: String, value: String)
    case query(name: String, value: String)
    case field(name: String, value: String)
    case jsonField(name: String, value: JSONValue)
    case file(name: String, path: String)
    case fieldFromFile(name: String, path: String)
    case jsonFieldFromFile(name: String, path: String)
    case bodyFile(path: String)

    /// The separators, longest first so that `==` and `:=` win over `=` and `:` at one place.
    private static let separators = ["==", ":=", "=", ":", "@"]

    /// Parses an item; the separator that occurs first in the text decides its kind.
    ///
    /// - Throws: `RequestItemError` when there is no separator, the name is empty, or a
    ///   `:=` value is not JSON.
    init(_ text: String) throws {
        if text.hasPrefix("@"), text.count > 1 {
            self = .bodyFile(path: String(text.dropFirst()))
            return
        }
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
        case ":=" where value.hasPrefix("@"): self = .jsonFieldFromFile(name: name, path: String(value.dropFirst()))
        case "=" where value.hasPrefix("@"): self = .fieldFromFile(name: name, path: String(value.dropFirst()))
        case ":=":
            do {
                self = .jsonField(name: name, value: try JSONValue(parsing: value))
            } catch {
                throw RequestItemError.invalidJSON(name: name, value: value, reason: error.description)
            }
        case "=": self = .field(name: name, value: value)
        case "@": self = .file(name: name, path: value)
        default: self = .header(name: name, value: value.trimmingCharacters(in: .whitespaces))
        }
    }

    /// The items with `name=@path` and `name:=@path` read: a field's text, a field's JSON.
    ///
    /// - Throws: `RequestItemError.unreadableFile`, or `.invalidJSON` for a file that is not JSON.
    static func readingFieldFiles(_ items: [RequestItem]) throws(RequestItemError) -> [RequestItem] {
        var result: [RequestItem] = []
        for item in items {
            switch item {
            case .fieldFromFile(let name, let path):
                guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                    throw .unreadableFile(path: path)
                }
                result.append(.field(name: name, value: text))
            case .jsonFieldFromFile(let name, let path):
                guard let data = FileManager.default.contents(atPath: path) else { throw .unreadableFile(path: path) }
                do {
                    result.append(.jsonField(name: name, value: try JSONValue(parsing: data)))
                } catch {
                    throw .invalidJSON(name: name, value: "@" + path, reason: error.description)
                }
            default:
                result.append(item)
            }
        }
        return result
    }

    /// The items' fields as one JSON object, in the order given; `nil` without fields.
    static func jsonBody(_ items: [RequestItem]) -> JSONValue? {
        let members = items.compactMap { item -> (String, JSONValue)? in
            switch item {
            case .field(let name, let value): (name, .string(value))
            case .jsonField(let name, let value): (name, value)
            default: nil
            }
        }
        return members.isEmpty ? nil : .object(JSONObject(members))
    }

    /// The items' fields and files as a multipart form, in the order given.
    ///
    /// - Throws: `RequestItemError.jsonFieldInForm` for a `name:=json` item,
    ///   `RequestItemError.unreadableFile` for a file that cannot be read.
    static func multipartBody(_ items: [RequestItem]) throws(RequestItemError) -> MultipartFormData {
        var form = MultipartFormData()
        for item in items {
            switch item {
            case .field(let name, let value): form.append(value, name: name)
            case .jsonField(let name, _): throw .jsonFieldInForm(name: name)
            case .file(let name, let path):
                do {
                    try form.append(fileAt: URL(fileURLWithPath: path), name: name)
                } catch {
                    throw .unreadableFile(path: path)
                }
            default: continue
            }
        }
        return form
    }

    /// The items' fields as form fields, in the order given; `nil` without fields.
    ///
    /// - Throws: `RequestItemError.jsonFieldInForm` for a `name:=json` item.
    static func formBody(_ items: [RequestItem]) throws(RequestItemError) -> FormFields? {
        var pairs: [(String, String)] = []
        for item in items {
            switch item {
            case .field(let name, let value): pairs.append((name, value))
            case .jsonField(let name, _): throw .jsonFieldInForm(name: name)
            default: continue
            }
        }
        return pairs.isEmpty ? nil : FormFields(pairs)
    }
}

enum RequestItemError: Error, CustomStringConvertible {
    case noSeparator(String)
    case emptyName(String)
    case invalidJSON(name: String, value: String, reason: String)
    case jsonFieldInForm(name: String)
    case unreadableFile(path: String)

    var description: String {
        switch self {
        case .noSeparator(let text):
            "'\(text)' is not a request item: use Header:Value, name==query, name=value, name:=json, name@file or @file."
        case .emptyName(let text):
            "'\(text)' has no name before its separator."
        case .invalidJSON(let name, let value, let reason):
            "'\(name):=\(value)': the value after := must be JSON, such as 42, true, [1,2] or {\"a\":1} (\(reason))."
        case .jsonFieldInForm(let name):
            "'\(name):=…' is a JSON field and cannot be sent in a form; use name=value."
        case .unreadableFile(let path):
            "The file '\(path)' cannot be read; check the path after @."
        }
    }
}
