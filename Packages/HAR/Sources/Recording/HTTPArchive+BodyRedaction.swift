import Foundation
import JewzHTTPCore

/// Credentials in bodies: an OAuth token request's secrets and grants (a form), and the tokens
/// of its answer (JSON), which a recording must not keep any more than an `Authorization` header.
extension HTTPArchive {
    /// Form fields and JSON members whose values are credentials (RFC 6749, 7523, 7636, 7009,
    /// 8628, 8693).
    static let credentialParameters: Set<String> = [
        "access_token", "refresh_token", "id_token", "client_secret", "client_assertion", "code", "code_verifier",
        "device_code", "password", "token", "assertion", "subject_token", "actor_token",
    ]

    /// `text` with the values of ``credentialParameters`` redacted, when `mimeType` is a form or
    /// JSON; any other text as it is.
    package static func redactingCredentials(in text: String, mimeType: String) -> String {
        let type = MediaType(mimeType)
        if type?.essence == "application/x-www-form-urlencoded" {
            return text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                let decoded = PercentEncoding.decode(name, plusAsSpace: true) ?? String(name)
                return credentialParameters.contains(decoded) ? "\(name)=\(redacted)" : String(pair)
            }.joined(separator: "&")
        }
        guard type?.essence == "application/json" || type?.suffix == "json", credentialParameters.contains(where: { text.contains("\"\($0)\"") }),
            var object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        else { return text }
        for key in object.keys where credentialParameters.contains(key) { object[key] = redacted }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return redacted
        }
        return String(decoding: data, as: UTF8.self)
    }
}
