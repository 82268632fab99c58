/// A parsed media type such as `text/html; charset=utf-8` (RFC 9110 §8.3.1).
///
/// Type, subtype and parameter names are lowercased; parameter values keep their case.
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    /// The top-level type, such as `application`.
    public var type: String
    /// The subtype, such as `json` or `vnd.api+json`.
    public var subtype: String
    /// The parameters in their order, names lowercased, quotes removed from values.
    public var parameters: [(name: String, value: String)]

    /// Parses a `Content-Type` value; `nil` when it has no `type/subtype`.
    public init?(_ string: some StringProtocol) {
        var sections = string.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let essence = sections.next() else { return nil }
        let parts = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let type = parts[0].trimmingHTTPWhitespace().lowercased()
        let subtype = parts[1].trimmingHTTPWhitespace().lowercased()
        guard !type.isEmpty, !subtype.isEmpty else { return nil }
        self.type = type
        self.subtype = subtype
        parameters = []
        while let section = sections.next() {
            guard let equals = section.firstIndex(of: "=") else { continue }
            let name = section[..<equals].trimmingHTTPWhitespace().lowercased()
            var value = section[section.index(after: equals)...].trimmingHTTPWhitespace()
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = Self.unquoted(value.dropFirst().dropLast())
            }
            if !name.isEmpty { parameters.append((name, value)) }
        }
    }

    /// The content of a quoted-string with its quoted-pairs (`\x`) resolved.
    private static func unquoted(_ quoted: Substring) -> String {
        var result = ""
        var escaping = false
        for character in quoted {
            if !escaping, character == "\\" {
                escaping = true
            } else {
                result.append(character)
                escaping = false
            }
        }
        return result
    }

    /// Creates a media type from its parts.
    public init(type: String, subtype: String, parameters: [(name: String, value: String)] = []) {
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameters = parameters
    }

    /// `type/subtype` without parameters.
    public var essence: String { "\(type)/\(subtype)" }

    /// The structured-syntax suffix (`json` in `application/vnd.api+json`), if any.
    public var suffix: String? {
        guard let plus = subtype.lastIndex(of: "+") else { return nil }
        let suffix = subtype[subtype.index(after: plus)...]
        return suffix.isEmpty ? nil : String(suffix)
    }

    /// The value of a parameter, looked up case-insensitively.
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name.equalsCaseInsensitively(name) }?.value
    }

    /// The `charset` parameter, if present.
    public var charset: String? { parameter("charset") }

    /// The media type as a header writes it: `type/subtype; name=value`.
    public var description: String {
        ([essence] + parameters.map { "\($0.name)=\($0.value)" }).joined(separator: "; ")
    }

    /// Whether both have the same essence and the same parameters in the same order.
    public static func == (lhs: MediaType, rhs: MediaType) -> Bool {
        lhs.essence == rhs.essence
            && lhs.parameters.map(\.name) == rhs.parameters.map(\.name)
            && lhs.parameters.map(\.value) == rhs.parameters.map(\.value)
    }

    /// Hashes the essence, which equal media types share.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(essence)
    }
}
