import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

/// Tokens for a session's requests: obtained once for many, refreshed on a 401, kept in a
/// store that another run reads, revoked on sign-out.
@Suite struct OAuth2AuthenticationTests {
    /// A device grant whose user approves at once, so each sign-in issues a refresh token.
    static func approvingDeviceGrant(_ session: HTTPSession) -> OAuth2Grant {
        .deviceAuthorization { authorization in
            _ = try await session.answer(HTTPRequest(url: try #require(authorization.verificationURIComplete)))
        }
    }

    static func client(_ sandbox: Sandbox, _ session: HTTPSession) -> OAuth2Client {
        var client = OAuth2GrantTests.confidential(sandbox, session)
        client.sleep = { _ in }
        return client
    }

    @Test func manyConcurrentRequestsShareOneToken() async throws {
        try await withSandbox { sandbox, session in
            let oauth = OAuth2Authentication(client: Self.client(sandbox, session), grant: .clientCredentials(scopes: ["read"]))
            try session.update { $0.authentications = [oauth] }
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<32 {
                    group.addTask { try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/resource"))).statusCode }
                }
                for try await status in group { #expect(status == 200) }
            }
            #expect(sandbox.router.oauthTokensIssued == ["client_credentials": 1])
        }
    }

    @Test func a401RefreshesOnceWithTheRefreshToken() async throws {
        try await withSandbox { sandbox, session in
            let oauth = OAuth2Authentication(client: Self.client(sandbox, session), grant: Self.approvingDeviceGrant(session))
            try session.update { $0.authentications = [oauth] }
            #expect(try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/resource"))).statusCode == 200)
            let first = try #require(oauth.token)
            _ = try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/expire"), method: .post))
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/resource"))).statusCode }
                }
                for try await status in group { #expect(status == 200) }
            }
            let issued = sandbox.router.oauthTokensIssued
            #expect(issued["urn:ietf:params:oauth:grant-type:device_code"] == 1)
            #expect(issued["refresh_token"] == 1)
            #expect(oauth.token?.refreshToken != first.refreshToken)
        }
    }

    @Test func aTokenAboutToExpireIsRefreshedBeforeTheRequest() async throws {
        try await withSandbox { sandbox, session in
            var client = Self.client(sandbox, session)
            client.endpoints.token = sandbox.endpoint("/oauth/token?expires_in=10")
            let oauth = OAuth2Authentication(client: client, grant: Self.approvingDeviceGrant(session))
            try session.update { $0.authentications = [oauth] }
            for _ in 0..<2 {
                #expect(try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/resource"))).statusCode == 200)
            }
            // Ten seconds is inside the margin: the second request needed a refresh, and got no 401.
            #expect(sandbox.router.oauthTokensIssued["refresh_token"] == 1)
        }
    }

    @Test func aFileStoreLetsAnotherRunReuseAndRefreshTheToken() async throws {
        try await withSandbox { sandbox, session in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oauth-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = OAuth2FileTokenStore(url: directory.appendingPathComponent("tokens/sandbox.json"))
            let first = OAuth2Authentication(client: Self.client(sandbox, session), grant: Self.approvingDeviceGrant(session), store: store)
            try await first.signIn()
            let mode = try FileManager.default.attributesOfItem(atPath: store.url.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            let text = try String(contentsOf: store.url, encoding: .utf8)
            #expect(text.contains(try #require(first.token?.refreshToken)))

            // The second run may not ask the user: it reads the store, and refreshes from it.
            let second = OAuth2Authentication(client: Self.client(sandbox, session), grant: .storedOnly, store: store)
            try session.update { $0.authentications = [second] }
            #expect(try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/resource"))).statusCode == 200)
            _ = try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/expire"), method: .post))
            #expect(try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/resource"))).statusCode == 200)
            #expect(try await store.token()?.refreshToken == second.token?.refreshToken)
            #expect(sandbox.router.oauthTokensIssued["urn:ietf:params:oauth:grant-type:device_code"] == 1)
        }
    }

    @Test func withoutAStoredTokenAStoredOnlyGrantSaysToSignIn() async throws {
        try await withSandbox { sandbox, session in
            let oauth = OAuth2Authentication(client: Self.client(sandbox, session), grant: .storedOnly)
            try session.update { $0.authentications = [oauth] }
            let error = await httpError { _ = try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/resource"))) }
            #expect((error?.underlying as? AuthError)?.code == .loginRequired)
        }
    }

    @Test func aServerThatRefusesAFreshTokenFailsClearlyAfterOneRefresh() async throws {
        try await withSandbox { sandbox, session in
            let oauth = OAuth2Authentication(client: Self.client(sandbox, session), grant: .clientCredentials())
            try session.update { $0.authentications = [oauth] }
            // `/token/protected` trusts only the tokens of its own issuer.
            let error = await httpError { _ = try await session.send(HTTPRequest(url: sandbox.endpoint("/token/protected"))) }
            #expect((error?.underlying as? AuthError)?.code == .tokenRejected)
            #expect(sandbox.router.oauthTokensIssued["client_credentials"] == 2)
        }
    }

    @Test func signingOutRevokesAndForgets() async throws {
        try await withSandbox { sandbox, session in
            let store = OAuth2MemoryTokenStore()
            let oauth = OAuth2Authentication(client: Self.client(sandbox, session), grant: Self.approvingDeviceGrant(session), store: store)
            let token = try await oauth.signIn()
            try await oauth.signOut()
            #expect(oauth.token == nil)
            #expect(try await store.token() == nil)
            #expect(try await OAuth2GrantTests.resource(sandbox, session, token: token.accessToken) == nil)
            let refused = await #expect(throws: AuthError.self) { try await oauth.client.refreshed(token) }
            #expect(refused?.oauthError == "invalid_grant")
        }
    }
}
