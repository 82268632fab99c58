import Foundation
import JewzHTTPCore

/// A client of an OAuth 2.0 authorization server: asks its token endpoint for tokens by each
/// grant, refreshes them, and revokes them.
///
/// Each method makes one exchange (the device grant polls) through `session`, without the
/// session's authentications, and returns what the server granted. To authorize a session's
/// requests with the tokens, keeping and renewing them, give the client to an
/// ``OAuth2Authentication``.
///
/// ```swift
/// let client = OAuth2Client(
///     endpoints: OAuth2Endpoints(token: URL(string: "https://auth.example.com/oauth/token")!),
///     clientID: "reporting", authentication: .secretBasic("s3cret"), session: session)
/// let token = try await client.clientCredentialsToken(scopes: ["reports:read"])
/// ```
public struct OAuth2Client: Sendable {
    /// The server's endpoints.
    public var endpoints: OAuth2Endpoints
    /// The client's identifier at the server.
    public var clientID: String
    /// How the client proves who it is.
    public var authentication: OAuth2ClientAuthentication
    /// The session the token requests go through (its transport, TLS, proxies and middleware).
    public var session: HTTPSession
    /// Waits between two polls of the device grant: a test's clock can stand in.
    package var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }

    /// A client of the server at `endpoints`, known there as `clientID`, proving it with
    /// `authentication`, talking through `session`.
    public init(endpoints: OAuth2Endpoints, clientID: String, authentication: OAuth2ClientAuthentication = .none, session: HTTPSession) {
        self.endpoints = endpoints
        self.clientID = clientID
        self.authentication = authentication
        self.session = session
    }

    /// A token for the client itself, with no user (RFC 6749 §4.4): service-to-service calls.
    ///
    /// - Throws: ``AuthError/Code/authorizationServer`` with the server's `error` (e.g.
    ///   `invalid_client` for a wrong secret); ``AuthError/Code/invalidServerResponse``; a
    ///   transport's `HTTPError`.
    public func clientCredentialsToken(scopes: [String] = []) async throws -> OAuth2Token {
        var form = [("grant_type", "client_credentials")]
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        return try await requestToken(form)
    }

    /// Exchanges an authorization code for a token (RFC 6749 §4.1.3), proving with the PKCE
    /// verifier that this client asked for it (RFC 7636 §4.5).
    ///
    /// - Throws: as ``clientCredentialsToken(scopes:)``; `invalid_grant` for a code used twice.
    public func token(forCode code: String, verifier: String, redirectURI: URL) async throws -> OAuth2Token {
        try await requestToken([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI.absoluteString),
            ("code_verifier", verifier),
        ])
    }

    /// A new access token from `token`'s refresh token (RFC 6749 §6). The returned token
    /// carries the server's new refresh token when it rotates them, else the old one.
    ///
    /// - Throws: ``AuthError/Code/loginRequired`` when `token` has no refresh token;
    ///   `invalid_grant` when the server no longer accepts it (signed out, rotated, expired).
    public func refreshed(_ token: OAuth2Token) async throws -> OAuth2Token {
        guard let refreshToken = token.refreshToken else {
            throw AuthError.loginRequired("the token has no refresh token")
        }
        var form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if !token.scopes.isEmpty { form.append(("scope", token.scopes.joined(separator: " "))) }
        return try await requestToken(form, previous: token)
    }

    /// Revokes `token` at the server (RFC 7009): its refresh token, which also ends the access
    /// tokens granted with it on most servers, and its access token. Does nothing without a
    /// revocation endpoint.
    ///
    /// - Throws: ``AuthError/Code/authorizationServer`` when the server refuses (a token it
    ///   does not know is not refused: RFC 7009 §2.2); a transport's `HTTPError`.
    public func revoke(_ token: OAuth2Token) async throws {
        guard let endpoint = endpoints.revocation else { return }
        var tokens = [(token.accessToken, "access_token")]
        if let refreshToken = token.refreshToken { tokens.insert((refreshToken, "refresh_token"), at: 0) }
        for (value, hint) in tokens {
            let response = try await post([("token", value), ("token_type_hint", hint)], to: endpoint)
            guard response.statusCode == 200 else { throw Self.error(in: response, from: endpoint) }
        }
    }

    /// Sends a token request and reads its answer.
    func requestToken(_ form: [(String, String)], previous: OAuth2Token? = nil) async throws -> OAuth2Token {
        let response = try await post(form, to: endpoints.token)
        guard response.statusCode == 200 else { throw Self.error(in: response, from: endpoints.token) }
        return try OAuth2Token.decode(response.data, receivedAt: Date(), previous: previous)
    }

    /// POSTs `form` with the client's authentication to `endpoint`, without the session's
    /// authentications (a bearer token must not go to the server that grants it).
    func post(_ form: [(String, String)], to endpoint: URL) async throws -> HTTPResponse {
        var form = form
        var request = HTTPRequest(url: endpoint, method: .post, headers: ["Accept": "application/json"])
        try authentication.apply(clientID: clientID, audience: endpoint, to: &request, form: &form)
        request.headers["Content-Type"] = "application/x-www-form-urlencoded"
        request.data = Data(Self.formEncoded(form).utf8)
        return try await Self.send(request, through: session)
    }

    /// Sends `request` without the session's authentications or response processors and
    /// returns its response whatever its status: an OAuth server's refusal is an answer to
    /// read, not a transport failure.
    ///
    /// The request goes straight to its endpoint: only over TLS (RFC 6749 §3.2, RFC 8414 §2;
    /// loopback excepted), and following no redirect — a token request's body holds secrets
    /// (a client secret, a code and its verifier, a refresh token) meant for that server alone —
    /// or, with `redirects` `.withinOrigin` (metadata), none to another origin.
    ///
    /// - Throws: ``AuthError/Code/insecureEndpoint`` for an `http` URL off loopback;
    ///   ``AuthError/Code/invalidServerResponse`` for a redirect not followed; a transport's
    ///   `HTTPError`.
    static func send(
        _ request: HTTPRequest, through session: HTTPSession, redirects: HTTPRequestOptions.Redirects = .never
    ) async throws -> HTTPResponse {
        try requireTLS(request.url)
        var options = HTTPRequestOptions(responseProcessors: [], authentications: [])
        options.redirects = redirects
        let response: HTTPResponse
        do {
            response = try await session.send(request, options: options)
        } catch let error as HTTPError where error.code == .statusCode {
            guard let answer = error.response else { throw error }
            response = answer
        }
        if HTTPResponse.isRedirect(statusCode: response.statusCode, headers: response.headers) {
            let location = (response.headers["Location"] ?? "").escapingControlCharacters
            throw AuthError.invalidServerResponse(
                "\(request.url.absoluteString) answered \(response.statusCode) with a redirect to \(location), and requests to an authorization "
                    + "server follow none \(redirects == .withinOrigin ? "to another origin" : "at all"): give the endpoint itself, if you trust where it leads")
        }
        return response
    }

    /// Refuses an endpoint that is not `https`, but on loopback (a local test server, or the
    /// loopback redirect of a native app).
    ///
    /// - Throws: ``AuthError/Code/insecureEndpoint``.
    static func requireTLS(_ url: URL) throws {
        guard url.scheme?.lowercased() != "https", !url.isLoopback else { return }
        throw AuthError.insecureEndpoint(url.absoluteString)
    }

    static func formEncoded(_ form: [(String, String)]) -> String {
        form.map {
            PercentEncoding.encode($0.0, allowing: .formURLEncoded, spaceAsPlus: true) + "="
                + PercentEncoding.encode($0.1, allowing: .formURLEncoded, spaceAsPlus: true)
        }.joined(separator: "&")
    }

    /// The error a refusing answer carries (RFC 6749 §5.2), or one that says the answer was unreadable.
    static func error(in response: HTTPResponse, from endpoint: URL) -> AuthError {
        let fields = (try? jsonObject(response.data, what: "error")) ?? [:]
        guard let code = fields["error"] as? String else {
            return AuthError.invalidServerResponse("\(endpoint.absoluteString) answered \(response.statusCode) without an OAuth error")
        }
        return AuthError.authorizationServer(error: code, description: fields["error_description"] as? String, endpoint: endpoint.absoluteString)
    }

    /// The number `fields[key]` holds, written as a number or, as some servers do, a string;
    /// `nil` when absent, unreadable or not finite.
    static func number(_ key: String, in fields: [String: Any]) -> Double? {
        let value = (fields[key] as? NSNumber)?.doubleValue ?? (fields[key] as? String).flatMap(Double.init)
        return value.flatMap { $0.isFinite ? $0 : nil }
    }

    /// A JSON object's fields.
    ///
    /// - Throws: ``AuthError/Code/invalidServerResponse`` when `data` is not a JSON object.
    static func jsonObject(_ data: Data, what: String) throws -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw AuthError.invalidServerResponse("the \(what) answer is not a JSON object")
        }
        return object
    }
}
