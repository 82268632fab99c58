import Foundation
import JewzHTTPCore
import JewzMocking
import JewzSandbox
import JewzTestSupport
import Testing

/// The cycle's redirect policy, the same on every transport (#21).
@Suite struct RedirectPolicyTests {
    /// Sends `headers` to `/redirect-to` on one Sandbox, pointing at `/inspect` on `target`,
    /// and returns what `/inspect` saw.
    func inspectAfterRedirect(
        transport: TransportKind, to target: (Sandbox) -> String, status: Int = 302, method: HTTPMethod = .get,
        body: Data? = nil, headers: HTTPHeaderFields
    ) async throws -> Inspection {
        let other = try await Sandbox.start()
        defer { Task { try? await other.shutdown() } }
        var inspection: Inspection?
        try await withSandbox(transport: transport) { sandbox, session in
            let destination = target(other).isEmpty ? sandbox.url("/inspect") : target(other)
            let cycle = try HTTPCycle(
                sandbox.url("/redirect-to"), method: method, parameters: ["url": "\(destination)", "status": "\(status)"], session: session)
            cycle.request.headers = headers
            if let body { cycle.request.body = .data(body) }
            try await cycle.start()
            inspection = try Inspection(cycle.response)
        }
        return try #require(inspection)
    }

    static let credentials: HTTPHeaderFields = [
        "Authorization": "Bearer secret", "Proxy-Authorization": "Basic c2VjcmV0", "Cookie": "session=secret", "X-Kept": "yes",
    ]

    @Test(arguments: TransportKind.allCases) func credentialsNeverReachAnotherOrigin(transport: TransportKind) async throws {
        let seen = try await inspectAfterRedirect(transport: transport, to: { $0.url("/inspect") }, headers: Self.credentials)
        #expect(seen.values("X-Kept") == ["yes"])
        #expect(seen.values("Authorization").isEmpty)
        #expect(seen.values("Proxy-Authorization").isEmpty)
        #expect(seen.values("Cookie").isEmpty)
    }

    @Test(arguments: TransportKind.allCases) func credentialsFollowASameOriginRedirect(transport: TransportKind) async throws {
        let seen = try await inspectAfterRedirect(transport: transport, to: { _ in "" }, headers: Self.credentials)
        #expect(seen.values("Authorization") == ["Bearer secret"])
        #expect(seen.values("Cookie") == ["session=secret"])
    }

    @Test(arguments: TransportKind.allCases) func a303TurnsAPostIntoAGetWithoutBody(transport: TransportKind) async throws {
        let seen = try await inspectAfterRedirect(
            transport: transport, to: { _ in "" }, status: 303, method: .post, body: Data("payload".utf8),
            headers: ["Content-Type": "text/plain"])
        #expect(seen.method == "GET")
        #expect(seen.bodyLength == 0)
        #expect(seen.values("Content-Type").isEmpty)
    }

    @Test(arguments: [TransportKind.asyncHTTPClient, .urlSession], [307, 308])
    func a307Or308KeepsMethodAndBody(transport: TransportKind, status: Int) async throws {
        let seen = try await inspectAfterRedirect(
            transport: transport, to: { $0.url("/inspect") }, status: status, method: .put, body: Data("payload".utf8),
            headers: ["Content-Type": "text/plain"])
        #expect(seen.method == "PUT")
        #expect(seen.body == "payload")
    }

    @Test func leavingHTTPSIsRefusedUnlessAllowed() async throws {
        let mock = MockTransport()
        mock.stub(.get, path: "/secure", status: 302, headers: ["Location": "http://example.test/plain"])
        mock.stub(.get, path: "/plain", status: 200, body: Data("plain".utf8))
        let session = HTTPSession(configuration: .init { $0.customTransport = mock })
        let error = await httpError { try await HTTPCycle.get("https://example.test/secure", session: session) }
        #expect(error?.code == .insecureRedirect)
        #expect(error?.description.contains("allowsInsecureRedirects") == true)

        var configuration = HTTPSession.Configuration()
        configuration.allowsInsecureRedirects = true
        configuration.customTransport = mock
        let permissive = HTTPSession(configuration: configuration)
        let response = try await HTTPCycle.get("https://example.test/secure", session: permissive)
        #expect(response.text == "plain")
    }

    @Test func notFollowingGivesTheRedirectItself() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.followsRedirects = false
        try await withSandbox(configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/redirect/1"), session: session)
            #expect(response.statusCode == 302)
            #expect(response.headers["Location"] == "/redirect/0?status=302")
        }
    }

    @Test func aLocationThatIsNotHTTPIsAnInvalidResponse() async throws {
        let mock = MockTransport()
        mock.stub(.get, path: "/away", status: 302, headers: ["Location": "ftp://example.test/file"])
        let error = await httpError { try await HTTPCycle.get("http://example.test/away", session: HTTPSession(configuration: .init { $0.customTransport = mock })) }
        #expect(error?.code == .invalidResponse)
    }
}
