import Foundation

/// An AWS access key, and the session token of temporary credentials. Its description shows the
/// key's identifier only.
public struct AWSCredentials: Sendable, Hashable, CustomStringConvertible {
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

    public var description: String {
        "AWSCredentials(\(accessKeyID), secret redacted\(sessionToken == nil ? "" : ", session token redacted"))"
    }
}
