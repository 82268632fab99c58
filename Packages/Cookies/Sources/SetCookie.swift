import Foundation
import JewzHTTPCore

/// A `Set-Cookie` field as RFC 6265 §5.2 parses it: a name-value pair and the attributes the
/// jar acts on. Unknown attributes are ignored; a field without `=` in its first part is no
/// cookie at all.
struct SetCookie: Equatable {
    var name: String
    var value: String
    var expires: Date?
    /// Seconds; takes precedence over `expires` (§5.3 step 3).
    var maxAge: Int?
    var domain: String?
    var path: String?
    var isSecure = false
    var isHTTPOnly = false

    /// The longest name plus value a jar keeps (RFC 6265 §6.1 asks for at least 4096 bytes).
    static let maximumSize = 4096

    init?(_ field: String) {
        // RFC 6265bis §5.7: a field with a control character other than a tab is ignored
        // whole. Kept, it would go back in every request's Cookie field, which the transport
        // then refuses: one bad cookie would break a site for the session.
        guard !field.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) else { return nil }
        let parts = field.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= Self.maximumSize else { return nil }
        for attribute in parts.dropFirst() {
            let (key, argument) = Self.split(attribute)
            switch key.lowercased() {
            case "expires":
                // The last one counts; one that does not parse is ignored.
                if let date = HTTPDate.parse(argument) { expires = date }
            case "max-age":
                let digits = argument.hasPrefix("-") ? argument.dropFirst() : Substring(argument)
                guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { continue }
                // Huge values saturate rather than overflow.
                let magnitude = Int(digits) ?? Int.max
                maxAge = argument.hasPrefix("-") ? 0 : magnitude
            case "domain":
                let domain = (argument.hasPrefix(".") ? String(argument.dropFirst()) : argument).lowercased()
                if !domain.isEmpty { self.domain = domain }
            case "path":
                path = argument.hasPrefix("/") ? argument : nil
            case "secure":
                isSecure = true
            case "httponly":
                isHTTPOnly = true
            default:
                continue
            }
        }
    }

    /// An attribute's name and its value, trimmed (the value empty when there is no `=`).
    private static func split(_ attribute: Substring) -> (String, String) {
        guard let equals = attribute.firstIndex(of: "=") else {
            return (attribute.trimmingCharacters(in: .whitespaces), "")
        }
        return (
            attribute[..<equals].trimmingCharacters(in: .whitespaces),
            attribute[attribute.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        )
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
