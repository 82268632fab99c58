import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

/// Requests to an authorization server go straight to it: over TLS (loopback excepted),
/// following no redirect, its metadata naming exactly the issuer asked for; and a token store
/// is refused when another user, another server or another client could be behind it.
@Suite struct OAuth2DirectRequestTests {
    @Test func aTokenRequestFollowsNoRedirectWithItsSecrets() async throws {
        let elsewhere = try await Sandbox.start()
        defer { Task { try? await elsewhere.shutdown() } }
        try await withSandbox { sandbox, session in
            var client = OAuth2GrantTests.confidential(sandbox, session, post: true)
            var redirect = URLComponents(string: sandbox.url("/redirect-to"))!
            redirect.queryItems = [.init(name: "url", value: elsewhere.url("/oauth/token")), .init(name: "status", value: "307")]
            client.endpoints.token = try #require(redirect.url)
            await #expect {
                _ = try await client.clientCredentialsToken()
            } throws: { error in
                let error = error as? AuthError
                return error?.code == .invalidServerResponse && error?.description.contains("follow none") == true
            }
            #expect(elsewhere.router.oauthTokensIssued.isEmpty, "the client secret never reached the other origin")
        }
    }

    @Test func metadataFollowsNoRedirectToAnotherOriginAndNamesTheIssuerExactly() async throws {
        let elsewhere = try await Sandbox.start()
        defer { Task { try? await elsewhere.shutdown() } }
        try await withSandbox { sandbox, session in
            // The Sandbox's issuer is `http://HOST`: the same with a slash is another issuer.
            await #expect {
                _ = try await OAuth2Endpoints.discover(issuer: sandbox.endpoint("/"), using: session)
            } throws: { error in
                (error as? AuthError)?.description.contains("exactly") == true
            }
            let endpoints = try await OAuth2Endpoints.discover(issuer: sandbox.endpoint(""), using: session)
            #expect(endpoints.token == sandbox.endpoint("/oauth/token"))
        }
        // A server whose well-known document redirects to another origin is not believed.
        let location = elsewhere.url("/.well-known/oauth-authorization-server")
        let redirecting = try await ScriptedServer.start { _ in
            [.send("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n")]
        }
        defer { Task { try? await redirecting.shutdown() } }
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        await #expect {
            _ = try await OAuth2Endpoints.discover(issuer: try #require(URL(string: redirecting.url(""))), using: session)
        } throws: { error in
            (error as? AuthError)?.description.contains("another origin") == true
        }
        try await session.shutdown()
    }

    @Test(arguments: ["http://auth.example.com", "http://10.0.0.1:8080/tenant"])
    func anEndpointWithoutTLSIsRefusedBeforeAnythingIsSent(_ issuer: String) async throws {
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        await #expect {
            _ = try await OAuth2Endpoints.discover(issuer: try #require(URL(string: issuer)), using: session)
        } throws: { error in
            (error as? AuthError)?.code == .insecureEndpoint
        }
        let client = OAuth2Client(endpoints: OAuth2Endpoints(token: try #require(URL(string: issuer + "/token"))), clientID: "c", session: session)
        await #expect {
            _ = try await client.clientCredentialsToken()
        } throws: { error in
            (error as? AuthError)?.code == .insecureEndpoint
        }
        try await session.shutdown()
    }

    @Test func aTokenStoreOthersCanReadOrOfAnotherServerIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oauth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("token.json")
        let server = try #require(URL(string: "https://auth.example.com"))
        let store = OAuth2FileTokenStore(url: file, server: server, clientID: "cli")
        try await store.save(OAuth2Token(accessToken: "at", refreshToken: "rt"))
        #expect(try await store.token()?.refreshToken == "rt")

        let otherServer = OAuth2FileTokenStore(url: file, server: URL(string: "https://evil.example"), clientID: "cli")
        await #expect { _ = try await otherServer.token() } throws: { ($0 as? AuthError)?.code == .untrustedTokenStore }
        let otherClient = OAuth2FileTokenStore(url: file, server: server, clientID: "another")
        await #expect { _ = try await otherClient.token() } throws: { ($0 as? AuthError)?.code == .untrustedTokenStore }

        chmod(file.path, 0o644)
        await #expect { _ = try await store.token() } throws: { ($0 as? AuthError)?.description.contains("chmod 600") == true }
        chmod(file.path, 0o600)
        chmod(directory.path, 0o777)
        await #expect { _ = try await store.save(nil) } throws: { ($0 as? AuthError)?.description.contains("chmod 700") == true }
        chmod(directory.path, 0o700)
        #expect(try await store.token()?.accessToken == "at")
    }

    @Test func twoRunsRenewingAtOnceRefreshOnce() async throws {
        try await withSandbox { sandbox, session in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oauth-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("token.json")
            let signIn = OAuth2Authentication(
                client: OAuth2AuthenticationTests.client(sandbox, session), grant: OAuth2AuthenticationTests.approvingDeviceGrant(session),
                store: OAuth2FileTokenStore(url: file))
            try await signIn.signIn()
            _ = try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/expire"), method: .post))
            // Two authentications, each with a store of its own on the one file, as two processes
            // have: each lock is its own open file, so they exclude each other as two processes do.
            let runs = (0..<2).map { _ in
                OAuth2Authentication(client: OAuth2AuthenticationTests.client(sandbox, session), grant: .storedOnly, store: OAuth2FileTokenStore(url: file))
            }
            try await withThrowingTaskGroup(of: Int.self) { group in
                for run in runs {
                    group.addTask {
                        try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/resource")), options: .init(authentications: [run])).statusCode
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            // Without the lock both would refresh the one rotating refresh token: the second
            // with a spent one, which ends in a sign-in a stored-only grant cannot make.
            #expect(sandbox.router.oauthTokensIssued["refresh_token"] == 1)
        }
    }
}
