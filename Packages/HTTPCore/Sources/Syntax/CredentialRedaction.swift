import Foundation

extension String {
    /// This URL text with any user info (`user:password@`) replaced by `***@`, for logs and
    /// messages: credentials in a URL never leave the process in text.
    var redactingURLCredentials: String {
        guard let schemeEnd = range(of: "://") else { return self }
        let authorityEnd = self[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? endIndex
        guard let at = self[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@") else { return self }
        return self[..<schemeEnd.upperBound] + "***" + self[at...]
    }
}

extension URL {
    /// The URL's text with its user info replaced by `***`.
    package var redactedString: String { absoluteString.redactingURLCredentials }
}
