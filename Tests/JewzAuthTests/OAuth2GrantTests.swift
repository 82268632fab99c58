import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

/// Each grant against the Sandbox's authorization server, which checks every client
/// authentication, PKCE verifier, state and code as a real one does.
@Suite struct OAuth2GrantTests {
    static func endpoints(_ sandbox: Sandbox, device: String = "/oauth/device") -> OAuth2Endpoints {
        OAuth2Endpoints(
            token: sandbox.endpoint("/oauth/token"), authorization: sandbox.endpoint("/oauth/authorize"),
            deviceAuthorization: sandbox.endpoint(device), revocation: sandbox.endpoint("/oauth/revoke"))
    }

    static func confidential(_ sandbox: Sandbox, _ session: HTTPSession, post: Bool = false) -> OAuth2Client {
        let secret = SandboxOAuthClients.confidentialSecret
        return OAuth2Client(
            endpoints: endpoints(sandbox), clientID: SandboxOAuthClients.confidentialID,
            authentication: post ? .secretPost(secret) : .secretBasic(secret), session: session)
    }

    /// What the Sandbox's protected resource says of `token`: its client, or `nil` for a 401.
    static func resource(_ sandbox: Sandbox, _ session: HTTPSession, token: String) async throws -> String? {
        let request = HTTPRequest(url: sandbox.endpoint("/oauth/resource"), headers: ["Authorization": "Bearer " + token])
        let response = try await session.answer(request)
        guard response.statusCode == 200 else { return nil }
        return (try JSONSerialization.jsonObject(with: response.data) as? [String: String])?["client_id"]
    }

    @Test(arguments: [false, true]) func clientCredentialsWithASecret(inTheForm post: Bool) async throws {
        try await withSandbox { sandbox, session in
            let token = try await Self.confidential(sandbox, session, post: post).clientCredentialsToken(scopes: ["reports:read"])
            #expect(token.scopes == ["reports:read"])
            #expect(token.refreshToken == nil)
            #expect(try await Self.resource(sandbox, session, token: token.accessToken) == SandboxOAuthClients.confidentialID)
        }
    }

    @Test func clientCredentialsWithAPrivateKeyJWT() async throws {
        try await withSandbox { sandbox, session in
            let signed = OAuth2Client(
                endpoints: Self.endpoints(sandbox), clientID: SandboxOAuthClients.jwtID,
                authentication: try .privateKeyJWT(pemRepresentation: SandboxOAuthClients.jwtClientKeyPEM), session: session)
            let token = try await signed.clientCredentialsToken()
            #expect(try await Self.resource(sandbox, session, token: token.accessToken) == SandboxOAuthClients.jwtID)

            let otherKey = try OAuth2ClientAuthentication.privateKeyJWT(pemRepresentation: P256TestKey.pem)
            let forged = OAuth2Client(endpoints: Self.endpoints(sandbox), clientID: SandboxOAuthClients.jwtID, authentication: otherKey, session: session)
            let error = await #expect(throws: AuthError.self) { try await forged.clientCredentialsToken() }
            #expect(error?.oauthError == "invalid_client")
        }
    }

    @Test func aWrongSecretIsRefusedWithWhatToCheck() async throws {
        try await withSandbox { sandbox, session in
            let client = OAuth2Client(
                endpoints: Self.endpoints(sandbox), clientID: SandboxOAuthClients.confidentialID, authentication: .secretBasic("wrong"),
                session: session)
            let error = await #expect(throws: AuthError.self) { try await client.clientCredentialsToken() }
            #expect(error?.code == .authorizationServer)
            #expect(error?.oauthError == "invalid_client")
            #expect(error?.description.contains("Check the client ID") == true)
            #expect(error?.description.contains("wrong") == false)
        }
    }

    @Test func anUnreadableKeyIsATypedError() {
        #expect(throws: AuthError.self) { try OAuth2ClientAuthentication.privateKeyJWT(pemRepresentation: "not a key") }
    }

    @Test func discoveryReadsTheServersMetadata() async throws {
        try await withSandbox { sandbox, session in
            let endpoints = try await OAuth2Endpoints.discover(issuer: sandbox.endpoint(""), using: session)
            #expect(endpoints.token == sandbox.endpoint("/oauth/token"))
            #expect(endpoints.deviceAuthorization == sandbox.endpoint("/oauth/device"))
            #expect(endpoints.revocation == sandbox.endpoint("/oauth/revoke"))
            // An issuer with a path has its metadata elsewhere: the Sandbox has none there.
            let error = await #expect(throws: AuthError.self) {
                try await OAuth2Endpoints.discover(issuer: sandbox.endpoint("/tenant"), using: session)
            }
            #expect(error?.code == .invalidServerResponse)
        }
    }

    @Test func theAuthorizationCodeComesBackThroughTheLoopbackWithItsState() async throws {
        try await withSandbox { sandbox, session in
            let client = OAuth2Client(endpoints: Self.endpoints(sandbox), clientID: SandboxOAuthClients.publicID, session: session)
            let forgedAnswer = Mutex<Int?>(nil)
            let token = try await client.authorizationCodeToken(scopes: ["profile"]) { url in
                let redirect = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "redirect_uri" }?.value)
                // A redirect that this sign-in did not start is refused and does not end it.
                let forged = try await session.answer(HTTPRequest(url: try #require(URL(string: redirect + "?code=stolen&state=forged"))))
                forgedAnswer.withLock { $0 = forged.statusCode }
                // The browser: the Sandbox consents and redirects to the loopback listener.
                let landed = try await session.answer(HTTPRequest(url: url))
                #expect(landed.statusCode == 200)
            }
            #expect(forgedAnswer.withLock { $0 } == 400)
            #expect(token.scopes == ["profile"])
            #expect(token.refreshToken != nil)
            #expect(try await Self.resource(sandbox, session, token: token.accessToken) == SandboxOAuthClients.publicID)
        }
    }

    @Test func aRefusedConsentIsAccessDenied() async throws {
        try await withSandbox { sandbox, session in
            let client = OAuth2Client(endpoints: Self.endpoints(sandbox), clientID: SandboxOAuthClients.publicID, session: session)
            let error = await #expect(throws: AuthError.self) {
                try await client.authorizationCodeToken { url in
                    _ = try await session.answer(HTTPRequest(url: try #require(URL(string: url.absoluteString + "&consent=deny"))))
                }
            }
            #expect(error?.code == .accessDenied)
        }
    }

    @Test func theDeviceGrantPollsAtTheIntervalAndSlowsDownWhenTold() async throws {
        try await withSandbox { sandbox, session in
            var client = OAuth2Client(
                endpoints: Self.endpoints(sandbox, device: "/oauth/device?interval=2&slow_down=1"), clientID: SandboxOAuthClients.publicID,
                session: session)
            let waits = Mutex<[Duration]>([])
            client.sleep = { duration in waits.withLock { $0.append(duration) } }
            let shown = Mutex<String?>(nil)
            let token = try await client.deviceAuthorizationToken(scopes: ["tv"]) { authorization in
                shown.withLock { $0 = authorization.userCode }
                // The user, on another device, approves.
                let approved = try await session.answer(HTTPRequest(url: try #require(authorization.verificationURIComplete)))
                #expect(approved.statusCode == 200)
            }
            #expect(shown.withLock { $0 }?.isEmpty == false)
            #expect(waits.withLock { $0 } == [.seconds(2), .seconds(7)])
            #expect(try await Self.resource(sandbox, session, token: token.accessToken) == SandboxOAuthClients.publicID)
        }
    }

    @Test func aDeviceRefusedOrExpiredIsATypedError() async throws {
        try await withSandbox { sandbox, session in
            var client = OAuth2Client(endpoints: Self.endpoints(sandbox), clientID: SandboxOAuthClients.publicID, session: session)
            client.sleep = { _ in }
            let denied = await #expect(throws: AuthError.self) {
                try await client.deviceAuthorizationToken { authorization in
                    let complete = try #require(authorization.verificationURIComplete)
                    let url = try #require(URL(string: complete.absoluteString + "&consent=deny"))
                    _ = try await session.answer(HTTPRequest(url: url))
                }
            }
            #expect(denied?.code == .accessDenied)

            client.endpoints.deviceAuthorization = sandbox.endpoint("/oauth/device?expires_in=0")
            let expired = await #expect(throws: AuthError.self) { try await client.deviceAuthorizationToken { _ in } }
            #expect(expired?.code == .expiredToken)
        }
    }

    @Test func aRefreshRotatesTheRefreshTokenAndRevocationEndsBoth() async throws {
        try await withSandbox { sandbox, session in
            let client = Self.confidential(sandbox, session)
            var first = try await client.clientCredentialsToken()
            // The client credentials grant issues no refresh token; the device grant does.
            #expect(first.refreshToken == nil)
            var device = client
            device.sleep = { _ in }
            first = try await device.deviceAuthorizationToken { _ = try await session.answer(HTTPRequest(url: try #require($0.verificationURIComplete))) }

            let second = try await client.refreshed(first)
            #expect(second.refreshToken != nil)
            #expect(second.refreshToken != first.refreshToken)
            let reused = await #expect(throws: AuthError.self) { try await client.refreshed(first) }
            #expect(reused?.oauthError == "invalid_grant")

            try await client.revoke(second)
            #expect(try await Self.resource(sandbox, session, token: second.accessToken) == nil)
            let revoked = await #expect(throws: AuthError.self) { try await client.refreshed(second) }
            #expect(revoked?.oauthError == "invalid_grant")
        }
    }

    @Test func aTokensDescriptionShowsNoCredential() {
        let token = OAuth2Token(accessToken: "at-secret", expiresAt: Date(), refreshToken: "rt-secret", scopes: ["a"])
        #expect(!token.description.contains("secret"))
        #expect(!String(describing: OAuth2ClientAuthentication.secretPost("pw-secret")).contains("pw-"))
    }
}

extension HTTPSession {
    /// The response to `request` whatever its status.
    func answer(_ request: HTTPRequest) async throws -> HTTPResponse {
        do { return try await send(request) } catch let error as HTTPError where error.response != nil {
            return try #require(error.response)
        }
    }
}

extension Sandbox {
    /// The URL of `path` on this Sandbox.
    func endpoint(_ path: String) -> URL { URL(string: url(path)) ?? URL(filePath: "/no-such-url") }
}

/// An EC P-256 key the Sandbox does not know.
enum P256TestKey {
    static let pem = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgnc+pocHS7ySHCzSD
        xSm4o3AfLlovN5V3F9tYT4+7qj6hRANCAATxMUHEf+EGHlb2cSYcyFxB6e1eGtYu
        bbfCIhghPNugUQ7nVMs5nCPHoLXuhLiP1cQWdLqmOk+iYGb+gDtYAQI7
        -----END PRIVATE KEY-----
        """
}
