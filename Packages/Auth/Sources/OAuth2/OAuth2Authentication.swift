import Foundation
import JewzHTTPCore
import JewzLocking

/// How an ``OAuth2Authentication`` gets a token when it holds none it can refresh.
public struct OAuth2Grant: Sendable {
    let obtain: @Sendable (OAuth2Client) async throws -> OAuth2Token

    /// Any way of getting a token: a grant this module does not offer (a JWT bearer
    /// assertion, a token exchange), or one the program runs itself.
    public init(_ obtain: @escaping @Sendable (OAuth2Client) async throws -> OAuth2Token) {
        self.obtain = obtain
    }

    /// The client credentials grant: a new token whenever one is needed, with no user.
    public static func clientCredentials(scopes: [String] = []) -> OAuth2Grant {
        OAuth2Grant { try await $0.clientCredentialsToken(scopes: scopes) }
    }

    /// The device grant: the user is shown a code by `present` whenever a new sign-in is needed.
    public static func deviceAuthorization(
        scopes: [String] = [], present: @escaping @Sendable (OAuth2DeviceAuthorization) async throws -> Void
    ) -> OAuth2Grant {
        OAuth2Grant { try await $0.deviceAuthorizationToken(scopes: scopes, present: present) }
    }

    /// The authorization code grant with PKCE through a loopback redirect: `open` shows the
    /// user the sign-in URL whenever a new sign-in is needed.
    public static func authorizationCode(
        scopes: [String] = [], timeout: Duration = .seconds(300), open: @escaping @Sendable (URL) async throws -> Void
    ) -> OAuth2Grant {
        OAuth2Grant { try await $0.authorizationCodeToken(scopes: scopes, timeout: timeout, open: open) }
    }

    /// Only the token the store holds, refreshed while the server allows: a program that must
    /// not ask its user (a script after `jewz auth login`) fails with
    /// ``AuthError/Code/loginRequired`` instead.
    public static let storedOnly = OAuth2Grant { _ in
        throw AuthError.loginRequired("the token store holds no token that can be refreshed")
    }
}

/// OAuth 2.0 access tokens for a session's requests: obtained by a grant, kept in a store,
/// refreshed before they expire and when a server answers 401.
///
/// However many requests need a token at once, one refresh or sign-in runs and they all wait
/// for it. A refresh token is used first; when the server no longer accepts it
/// (`invalid_grant`), the grant runs again. A rotated refresh token replaces the old one in
/// the store before the new access token is used. A request refused with a token refreshed
/// for it (`401`, `error="invalid_token"`) fails with ``AuthError/Code/tokenRejected`` rather
/// than refreshing again; a 401 whose Bearer challenge names another error
/// (`insufficient_scope`), or that challenges another scheme only, is returned as it is,
/// since a new token would not mend it.
///
/// As a session's authentication, the token goes only to the session's base URL's origin (or
/// to the origins `limited(to:)` names), never to the authorization server.
///
/// ```swift
/// let client = OAuth2Client(
///     endpoints: try await .discover(issuer: URL(string: "https://auth.example.com")!, using: session),
///     clientID: "reporting", authentication: .secretBasic("s3cret"), session: session)
/// try session.update {
///     $0.authentications = [OAuth2Authentication(client: client, grant: .clientCredentials(scopes: ["reports:read"]))]
/// }
/// ```
public final class OAuth2Authentication: HTTPAuthentication {
    private struct State {
        var token: OAuth2Token?
        /// Whether the store has been read: only the first renewal takes its token as it is.
        var loaded = false
    }

    /// The client that talks to the authorization server.
    public let client: OAuth2Client
    private let grant: OAuth2Grant
    private let store: any OAuth2TokenStore
    private let state = Mutex(State())
    /// Shares one renewal among the requests that need it, and bounds renewals in a row.
    private let bearer: TokenAuthenticator

    /// An authentication that gets tokens from `client` by `grant`, keeps them in `store`, and
    /// renews them as they expire.
    ///
    /// - Parameters:
    ///   - client: the client that asks the authorization server.
    ///   - grant: how a token is got when none can be refreshed.
    ///   - store: where the token is kept (in memory unless given).
    ///   - maximumRefreshes: how many renewals `refreshWindow` allows before requests fail with
    ///     ``AuthError/Code/refreshLimit``.
    ///   - refreshWindow: the span over which renewals are counted.
    public init(
        client: OAuth2Client, grant: OAuth2Grant, store: any OAuth2TokenStore = OAuth2MemoryTokenStore(),
        maximumRefreshes: Int = 3, refreshWindow: Duration = .seconds(60)
    ) {
        self.client = client
        self.grant = grant
        self.store = store
        let renewal = RenewalBox()
        bearer = TokenAuthenticator(maximumRefreshes: maximumRefreshes, refreshWindow: refreshWindow) { try await renewal.renew() }
        renewal.owner.withLock { $0.authentication = self }
    }

    /// The token held now; `nil` before the first request or sign-in.
    public var token: OAuth2Token? { state.withLock { $0.token } }

    /// Runs the grant now, without waiting for a request to need a token (a command that
    /// signs in), and keeps what it returns.
    ///
    /// - Throws: what the grant or the store threw.
    @discardableResult
    public func signIn() async throws -> OAuth2Token {
        let token = try await grant.obtain(client)
        try await keep(token)
        return token
    }

    /// Revokes the token at the server when it has a revocation endpoint, and forgets it here
    /// and in the store. The next request runs the grant again.
    ///
    /// - Throws: what the revocation or the store threw; the token is forgotten here even then.
    public func signOut() async throws {
        let (held, loaded) = state.withLock { ($0.token, $0.loaded) }
        let token = loaded ? held : try await store.token()
        state.withLock { $0 = State(token: nil, loaded: true) }
        bearer.replace(with: nil)
        try await store.save(nil)
        if let token { try await client.revoke(token) }
    }

    /// Sends the token, getting or renewing it first when there is none or it is about to expire.
    ///
    /// - Throws: ``AuthError`` when no token can be got (the grant, the refresh, the store failed).
    public func authorize(_ request: inout HTTPRequest) async throws {
        try await bearer.authorize(&request)
    }

    /// Answers a 401 with a renewed token, once, when the token is what the server refused
    /// (RFC 6750 §3.1): its Bearer challenge says `invalid_token` or gives no error, or it
    /// sends no challenge at all. `false` for anything else — `insufficient_scope` or
    /// `invalid_request`, which a new token does not mend, or a challenge of another scheme
    /// only — so that a refresh token is not spent for nothing.
    ///
    /// - Throws: ``AuthError`` when the token cannot be renewed.
    public func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool {
        guard Self.refusesTheToken(challenge) else { return false }
        return try await bearer.respond(to: challenge, retrying: &request)
    }

    /// Whether a 401 says the token itself was refused, so that another could be accepted.
    static func refusesTheToken(_ response: HTTPResponse) -> Bool {
        let challenges = ChallengeKind.server.challenges(in: response)
        guard let bearer = challenges.first(where: { $0.scheme == "bearer" }) else { return challenges.isEmpty }
        return bearer["error"] == nil || bearer["error"] == "invalid_token"
    }

    /// Looks at the final response for a token refused right after it was renewed.
    ///
    /// - Throws: ``AuthError/Code/tokenRejected`` when the server refused, as `invalid_token`,
    ///   the token this authentication holds now.
    public func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {
        guard response.statusCode == 401, let challenge = Self.bearerChallenge(in: response), challenge["error"] == "invalid_token",
            let current = bearer.credential?.token, request.headers["Authorization"] == "Bearer " + current
        else { return }
        throw AuthError.tokenRejected(challenge["error_description"] ?? "invalid_token from \(request.url.redactedString)")
    }

    /// A response's Bearer challenge (RFC 6750 §3), whose `error` says why a token was refused.
    private static func bearerChallenge(in response: HTTPResponse) -> AuthenticationChallenge? {
        ChallengeKind.server.challenges(in: response).first { $0.scheme == "bearer" }
    }

    /// A token newer than the one held: the store's on the first call when it is still
    /// valid, else a refresh, else the grant's.
    fileprivate func renew() async throws -> TokenAuthenticator.Credential {
        try await store.renewing { try await renewHoldingStore() }
    }

    /// ``renew()`` while no other renewal through the store runs: the store's token is read
    /// first, since another process may have renewed it meanwhile (and rotated the refresh
    /// token this one holds).
    private func renewHoldingStore() async throws -> TokenAuthenticator.Credential {
        let held = state.withLock { $0.token }
        let stored = try await store.token()
        state.withLock { $0 = State(token: stored ?? held, loaded: true) }
        if let stored, stored != held, !stored.isExpired(margin: Self.renewalMargin) { return Self.credential(stored) }
        if let current = stored ?? held, current.refreshToken != nil {
            do {
                let refreshed = try await client.refreshed(current)
                try await keep(refreshed)
                return Self.credential(refreshed)
            } catch let error as AuthError where error.oauthError == "invalid_grant" {
                // The refresh token is spent (signed out elsewhere, rotated by another run): sign in again.
            }
        }
        let token = try await grant.obtain(client)
        try await keep(token)
        return Self.credential(token)
    }

    private func keep(_ token: OAuth2Token) async throws {
        try await store.save(token)
        state.withLock { $0 = State(token: token, loaded: true) }
        bearer.replace(with: Self.credential(token))
    }

    /// How long before its stated expiry a token is renewed, so that no request leaves with a
    /// token about to lapse.
    private static let renewalMargin: TimeInterval = 30

    /// The bearer credential of `token`, expiring `renewalMargin` early.
    private static func credential(_ token: OAuth2Token) -> TokenAuthenticator.Credential {
        .init(token: token.accessToken, expiresAt: token.expiresAt.map { $0.addingTimeInterval(-renewalMargin) })
    }
}

/// Lets the bearer's refresh reach the authentication that owns it, without a cycle of strong
/// references.
private final class RenewalBox: Sendable {
    struct Owner {
        weak var authentication: OAuth2Authentication?
    }

    let owner = Mutex(Owner())

    func renew() async throws -> TokenAuthenticator.Credential {
        guard let owner = owner.withLock({ $0.authentication }) else { throw CancellationError() }
        return try await owner.renew()
    }
}
