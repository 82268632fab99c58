import Foundation
import JewzHTTPCore

/// How the recorder turns requests and responses into HAR's objects: credentials redacted,
/// bodies as text or base64, left out past the limit with a note.
extension HTTPArchive {
    /// What credentials become in a recording.
    static let redacted = "[redacted]"

    /// The header fields whose values are credentials.
    static let credentialFields: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// `body` as a HAR text: UTF-8 as it is, anything else in base64; `nil` past `limit` bytes
    /// (`count` is the whole body's length), with the note that says so.
    package static func text(of body: Data, count: Int, limit: Int) -> (text: String?, encoding: String?, comment: String?) {
        guard count <= limit, body.count == count else {
            return (nil, nil, "\(count) bytes, past the recorder's limit of \(limit): not recorded")
        }
        if let text = String(validating: body, as: UTF8.self) { return (text, nil, nil) }
        return (body.base64EncodedString(), "base64", nil)
    }

    /// `headers` as name-value pairs, credential values redacted when asked.
    package static func fields(_ headers: HTTPHeaderFields, redacting: Bool) -> [NameValue] {
        headers.fields.map { field in
            NameValue(name: field.name, value: redacting && credentialFields.contains(field.name.lowercased()) ? redacted : field.value)
        }
    }

    /// The cookies a `Cookie` field sends.
    package static func requestCookies(_ headers: HTTPHeaderFields, redacting: Bool) -> [Cookie] {
        headers.values(for: "Cookie").flatMap { $0.split(separator: ";") }.compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = parts.first, !name.isEmpty else { return nil }
            return Cookie(name: name, value: redacting ? redacted : parts.count > 1 ? parts[1] : "")
        }
    }

    /// The cookies `Set-Cookie` fields set, with their attributes.
    package static func responseCookies(_ headers: HTTPHeaderFields, redacting: Bool) -> [Cookie] {
        headers.values(for: "Set-Cookie").compactMap { field in
            let parts = field.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let pair = parts.first?.split(separator: "=", maxSplits: 1).map(String.init) ?? []
            guard let name = pair.first, !name.isEmpty else { return nil }
            var cookie = Cookie(name: name, value: redacting ? redacted : pair.count > 1 ? pair[1] : "")
            for attribute in parts.dropFirst() {
                let (key, value) = attribute.split(separator: "=", maxSplits: 1).map(String.init).splitPair
                switch key.lowercased() {
                case "path": cookie.path = value
                case "domain": cookie.domain = value
                case "expires": cookie.expires = value
                case "httponly": cookie.httpOnly = true
                case "secure": cookie.secure = true
                default: break
                }
            }
            return cookie
        }
    }

    /// `url` without user info or fragment, as recorded.
    package static func recordedURL(_ url: URL) -> String {
        // Most URLs have neither: they are recorded as they are, without being taken apart.
        guard url.user != nil || url.password != nil || url.fragment != nil else { return url.absoluteString }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.user = nil
        components.password = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    /// The query's parameters, percent-decoded.
    package static func query(of url: URL) -> [NameValue] {
        (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map { NameValue(name: $0.name, value: $0.value ?? "") }
    }

    /// `date` as HAR writes it: ISO 8601 with milliseconds, in UTC.
    package static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

extension Array where Element == String {
    /// The first two elements, the second empty when missing.
    fileprivate var splitPair: (String, String) {
        (first ?? "", count > 1 ? self[1] : "")
    }
}
