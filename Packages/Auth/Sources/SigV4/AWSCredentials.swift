import Foundation

/// An AWS access key, and the session token of temporary credentials. Its description and its
/// mirror show the key's identifier only.
public struct AWSCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The access key's identifier (`AKIA…`, `ASIA…` for temporary credentials).
    public var accessKeyID: String
    /// The secret that signs requests; never logged.
    public var secretAccessKey: String
    /// The token of temporary credentials (STS), sent as `X-Amz-Security-Token`; `nil` for none.
    public var sessionToken: String?

    /// Credentials from their three parts.
    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// The credentials the standard variables name — `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY` and, for temporary ones, `AWS_SESSION_TOKEN` — as the AWS CLI and
    /// SDKs read them; `nil` when the first two are not both set.
    public static func environment(_ variables: [String: String] = ProcessInfo.processInfo.environment) -> AWSCredentials? {
        guard let id = variables["AWS_ACCESS_KEY_ID"], !id.isEmpty, let secret = variables["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
            return nil
        }
        let token = variables["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }

    /// The credentials of a profile in the shared credentials file, as the AWS CLI and SDKs
    /// read it: `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`; the profile
    /// `AWS_PROFILE` names, else `default`. `nil` when the file or the profile is missing, or
    /// the profile lacks `aws_access_key_id` or `aws_secret_access_key`.
    ///
    /// - Parameters:
    ///   - name: the profile; `nil` for `AWS_PROFILE`'s, else `default`.
    ///   - file: the credentials file; `nil` for the standard one.
    ///   - variables: the environment the standard names are read from.
    public static func profile(
        _ name: String? = nil, file: URL? = nil, variables: [String: String] = ProcessInfo.processInfo.environment
    ) -> AWSCredentials? {
        let path = file?.path ?? variables["AWS_SHARED_CREDENTIALS_FILE"]
            ?? (variables["HOME"] ?? NSHomeDirectory()) + "/.aws/credentials"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let wanted = name ?? variables["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        var section: String?
        var values: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                continue
            }
            guard section == wanted, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            values[key] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        guard let id = values["aws_access_key_id"], !id.isEmpty, let secret = values["aws_secret_access_key"], !secret.isEmpty else {
            return nil
        }
        return AWSCredentials(accessKeyID: id, secretAccessKey: secret, sessionToken: values["aws_session_token"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The access key ID, the secret and session token left out.
    public var description: String {
        "AWSCredentials(\(accessKeyID), secret redacted\(sessionToken == nil ? "" : ", session token redacted"))"
    }

    /// The fields `dump` and the debugger show, the secret and the token redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "accessKeyID": accessKeyID, "secretAccessKey": "<redacted>", "sessionToken": sessionToken.map { _ in "<redacted>" } as Any,
            ], displayStyle: .struct)
    }
}
