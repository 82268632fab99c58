import Foundation

/// What a token endpoint grants (RFC 6749 §5.1): an access token, when it expires, and the
/// refresh token that renews it.
///
/// Its `description` and its mirror (what `dump` and the debugger show) redact every token,
/// so that printing one, logging it or putting it in an error never shows a credential. Codable, for a ``OAuth2TokenStore`` to keep it.
public struct OAuth2Token: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// The credential sent as `Authorization: Bearer …`.
    public var accessToken: String
    /// The token type the server named (`Bearer`).
    public var tokenType: String
    /// When the access token stops being valid; `nil` when the server did not say.
    public var expiresAt: Date?
    /// The token that asks for a new access token without the user; `nil` when none was granted.
    public var refreshToken: String?
    /// The scopes granted (the server's `scope`, split at spaces); empty when it did not say.
    public var scopes: [String]
    /// The OpenID Connect ID token, when the server sent one.
    public var idToken: String?

    /// A token from its parts (a test's, or one a program got some other way).
    public init(
        accessToken: String, tokenType: String = "Bearer", expiresAt: Date? = nil, refreshToken: String? = nil,
        scopes: [String] = [], idToken: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.scopes = scopes
        self.idToken = idToken
    }

    /// Whether the access token has expired at `date`, counting a margin so that a request
    /// does not leave with a token that lapses on the way.
    public func isExpired(at date: Date = Date(), margin: TimeInterval = 30) -> Bool {
        expiresAt.map { $0.timeIntervalSince(date) <= margin } ?? false
    }

    /// The token's type, expiry and scopes, its secrets left out.
    public var description: String {
        var parts = ["\(tokenType) token redacted"]
        if let expiresAt { parts.append("expires \(expiresAt.formatted(.iso8601))") }
        if refreshToken != nil { parts.append("refresh token redacted") }
        if !scopes.isEmpty { parts.append("scopes \(scopes.joined(separator: " "))") }
        return "OAuth2Token(\(parts.joined(separator: ", ")))"
    }

    /// The fields `dump` and the debugger show, every token redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "accessToken": "<redacted>", "tokenType": tokenType, "expiresAt": expiresAt as Any,
                "refreshToken": refreshToken.map { _ in "<redacted>" } as Any, "scopes": scopes,
                "idToken": idToken.map { _ in "<redacted>" } as Any,
            ], displayStyle: .struct)
    }

    /// Reads a token response's JSON, keeping `previous`'s refresh token when the server sends
    /// none (RFC 6749 §6: a refresh may or may not rotate it).
    ///
    /// - Throws: ``AuthError/Code/invalidServerResponse`` when the JSON lacks `access_token`.
    static func decode(_ data: Data, receivedAt now: Date, previous: OAuth2Token? = nil) throws -> OAuth2Token {
        let fields = try OAuth2Client.jsonObject(data, what: "token")
        guard let accessToken = fields["access_token"] as? String, !accessToken.isEmpty else {
            throw AuthError.invalidServerResponse("the token answer has no access_token")
        }
        // A wild lifetime is bounded to a century.
        let lifetime = OAuth2Client.number("expires_in", in: fields).map { min(max($0, 0), 3_155_760_000) }
        let scopes = (fields["scope"] as? String).map { $0.split(separator: " ").map(String.init) } ?? previous?.scopes ?? []
        return OAuth2Token(
            accessToken: accessToken, tokenType: fields["token_type"] as? String ?? "Bearer",
            expiresAt: lifetime.map { now.addingTimeInterval($0) },
            refreshToken: fields["refresh_token"] as? String ?? previous?.refreshToken, scopes: scopes,
            idToken: fields["id_token"] as? String)
    }
}
