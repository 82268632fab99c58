import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// A session's credentials go to its base URL's origin only, unless told otherwise; a
/// credential can name its own origins.
@Suite struct CredentialScopeTests {
    private static let basic = "Basic dGVzdDoxMjM0NQ=="

    /// What `Authorization` a GET of `/inspect` on `server` carried.
    private func sentAuthorization(to server: Sandbox, _ session: HTTPSession, options: HTTPRequestOptions = .init()) async throws -> [String] {
        try Inspection(try await HTTPCycle.get(server.url("/inspect"), options: options, session: session)).values("Authorization")
    }

    @Test func withABaseURLTheSessionsCredentialsStayWithItsOrigin() async throws {
        let other = try await Sandbox.start()
        defer { Task { try? await other.shutdown() } }
        try await withSandbox { sandbox, session in
            try session.update {
                $0.baseURL = URL(string: sandbox.url("/"))
                $0.requestProcessors = [BearerTokenProcessor(token: "t0ken")]
                $0.authentications = [PreemptiveBasic()]
            }
            let home = try Inspection(try await HTTPCycle.get("/inspect", session: session))
            #expect(home.values("Authorization") == ["Bearer t0ken"])
            #expect(try await sentAuthorization(to: other, session).isEmpty)
            // A cycle's own credentials go where the cycle is sent.
            let own = HTTPRequestOptions(requestProcessors: [BasicAuthProcessor(username: "test", password: "12345")])
            #expect(try await sentAuthorization(to: other, session, options: own) == [Self.basic])
            // Told otherwise, the session's go anywhere.
            try session.update { $0.sendsCredentialsToAnyOrigin = true }
            #expect(try await sentAuthorization(to: other, session) == ["Bearer t0ken"])
            try session.update { $0.requestProcessors = [] }
            #expect(try await sentAuthorization(to: other, session) == [Self.basic])
        }
    }

    @Test func aCredentialNamingItsOriginsGoesToThoseAlone() async throws {
        let other = try await Sandbox.start()
        defer { Task { try? await other.shutdown() } }
        try await withSandbox { sandbox, session in
            try session.update {
                $0.requestProcessors = [AuthorizationHeaderProcessor(scheme: "", credentials: "k3y", field: "X-Api-Key", origins: [sandbox.url("/any/path")])]
                $0.authentications = [BasicAuthentication(username: "test", password: "12345").limited(to: [other.url("")])]
            }
            let home = try Inspection(try await HTTPCycle.get(sandbox.url("/inspect"), session: session))
            #expect(home.values("X-Api-Key") == ["k3y"])
            // The Basic authentication is limited to the other server: no answer to this one's challenge.
            let refused = await httpError { try await HTTPCycle.get(sandbox.url("/hello_with_basic_auth"), session: session) }
            #expect(refused?.statusCode == 401)
            let away = try Inspection(try await HTTPCycle.get(other.url("/inspect"), session: session))
            #expect(away.values("X-Api-Key").isEmpty)
            let answered = try await HTTPCycle.get(other.url("/hello_with_basic_auth"), session: session)
            #expect(answered.text == "Hello World")
        }
    }
}

/// Sends Basic credentials before every send.
private struct PreemptiveBasic: HTTPAuthentication {
    func authorize(_ request: inout HTTPRequest) async throws {
        if !request.headers.contains("Authorization") { request.headers["Authorization"] = "Basic dGVzdDoxMjM0NQ==" }
    }

    func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool { false }
    func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {}
}
