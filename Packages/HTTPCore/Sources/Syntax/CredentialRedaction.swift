import Foundation

extension String {
    /// This URL text with its credentials replaced by `***`, for logs and messages: the user
    /// info (`user:password@`), and a presigned URL's `X-Amz-Signature`, `X-Amz-Security-Token`
    /// and the access key of its `X-Amz-Credential` (the scope after it stays readable).
    var redactingURLCredentials: String {
        guard let schemeEnd = range(of: "://") else { return self }
        let authorityEnd = self[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? endIndex
        var redacted = self
        if let at = self[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@") {
            redacted = self[..<schemeEnd.upperBound] + "***" + self[at...]
        }
        return redacted.redactingPresignedQuery
    }

    /// The query items that make a presigned URL usable, with their values replaced.
    private var redactingPresignedQuery: String {
        guard let queryStart = firstIndex(of: "?") else { return self }
        let queryEnd = self[queryStart...].firstIndex(of: "#") ?? endIndex
        let items = self[index(after: queryStart)..<queryEnd].split(separator: "&", omittingEmptySubsequences: false)
        var changed = false
        let redactedItems = items.map { item -> Substring in
            guard let equals = item.firstIndex(of: "=") else { return item }
            let name = item[..<equals].lowercased()
            let value = item[item.index(after: equals)...]
            switch name {
            case "x-amz-signature", "x-amz-security-token":
                changed = true
                return item[...equals] + "***"
            case "x-amz-credential":
                // The access key ID, up to the first `/` of the scope, written `%2F` or `/`.
                let slash = value.range(of: "%2F", options: .caseInsensitive)?.lowerBound ?? value.firstIndex(of: "/") ?? value.endIndex
                changed = true
                return item[...equals] + "***" + value[slash...]
            default:
                return item
            }
        }
        guard changed else { return self }
        return self[...queryStart] + redactedItems.joined(separator: "&") + self[queryEnd...]
    }
}

extension URL {
    /// The URL's text with its credentials (user info, a presigned URL's signature and
    /// token) replaced by `***`.
    package var redactedString: String { absoluteString.redactingURLCredentials }
}
