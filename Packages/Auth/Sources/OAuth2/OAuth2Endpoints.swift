import Foundation
import JewzHTTPCore

/// Where an authorization server takes each request: given one by one, or read from its
/// metadata with ``discover(issuer:using:)``.
public struct OAuth2Endpoints: Sendable, Hashable {
    /// The token endpoint (RFC 6749 §3.2): every grant ends there.
    public var token: URL
    /// Where a user signs in and consents (RFC 6749 §3.1); needed by the authorization code grant.
    public var authorization: URL?
    /// Where a device asks for a user code (RFC 8628 §3.1); needed by the device grant.
    public var deviceAuthorization: URL?
    /// Where tokens are revoked on sign-out (RFC 7009); without it, signing out only forgets them.
    public var revocation: URL?
    /// The issuer the metadata came from, when discovered.
    public var issuer: URL?

    /// The endpoints given one by one; only the token endpoint is needed by every grant.
    public init(token: URL, authorization: URL? = nil, deviceAuthorization: URL? = nil, revocation: URL? = nil, issuer: URL? = nil) {
        self.token = token
        self.authorization = authorization
        self.deviceAuthorization = deviceAuthorization
        self.revocation = revocation
        self.issuer = issuer
    }

    /// Reads the server's metadata (RFC 8414): `/.well-known/oauth-authorization-server`, then
    /// OpenID Connect's `/.well-known/openid-configuration`, each inserted after the host as
    /// RFC 8414 §3.1 does for an issuer with a path.
    ///
    /// The documents are fetched over TLS (loopback excepted), following redirects on the
    /// issuer's origin only.
    ///
    /// - Throws: ``AuthError/Code/insecureEndpoint`` for an `http` issuer off loopback;
    ///   ``AuthError/Code/invalidServerResponse`` when neither document exists, one redirects
    ///   to another origin, or the one found has no `token_endpoint` or names another issuer
    ///   than `issuer`, character for character (RFC 8414 §3.3: metadata that does not name
    ///   its own issuer may be an impostor's); a transport's `HTTPError`.
    public static func discover(issuer: URL, using session: HTTPSession) async throws -> OAuth2Endpoints {
        var tried: [String] = []
        for name in ["oauth-authorization-server", "openid-configuration"] {
            guard let url = wellKnownURL(issuer: issuer, name: name) else { break }
            tried.append(url.absoluteString)
            let request = HTTPRequest(url: url, headers: ["Accept": "application/json"])
            let response = try await OAuth2Client.send(request, through: session, redirects: .withinOrigin)
            guard response.statusCode == 200 else { continue }
            let fields = try OAuth2Client.jsonObject(response.data, what: "metadata")
            let named = fields["issuer"] as? String
            guard named == issuer.absoluteString else {
                let shown = named.map { "\"\($0.escapingControlCharacters)\"" } ?? "none"
                throw AuthError.invalidServerResponse(
                    "the metadata at \(url.absoluteString) names the issuer \(shown), not \"\(issuer.absoluteString)\" exactly; give the issuer as the server names it, if you trust it")
            }
            let endpoint: (String) -> URL? = { key in (fields[key] as? String).flatMap(URL.init(string:)) }
            guard let token = endpoint("token_endpoint") else {
                throw AuthError.invalidServerResponse("the metadata at \(url.absoluteString) has no token_endpoint")
            }
            return OAuth2Endpoints(
                token: token, authorization: endpoint("authorization_endpoint"),
                deviceAuthorization: endpoint("device_authorization_endpoint"), revocation: endpoint("revocation_endpoint"),
                issuer: issuer)
        }
        throw AuthError.invalidServerResponse("no authorization server metadata at \(tried.joined(separator: " or ")); give the endpoints instead")
    }

    /// `https://host/.well-known/NAME/path` for the issuer `https://host/path`.
    static func wellKnownURL(issuer: URL, name: String) -> URL? {
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) else { return nil }
        let path = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = "/.well-known/\(name)" + path
        components.query = nil
        components.fragment = nil
        return components.url
    }
}
