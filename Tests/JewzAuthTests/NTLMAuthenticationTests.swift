import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// NTLM against the Sandbox's acceptor, which keeps each handshake with its connection: a leg
/// sent over another connection than the one before it fails there.
@Suite struct NTLMAuthenticationTests {
    @Test func ntlmAnswersTheChallengeWithAMICAndTheSandboxAccepts() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [NTLMAuthentication(username: "CORP\\ada", password: "s3cret")] }
            let response = try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret"), session: session)
            let answer = try #require(response.text)
            #expect(answer == #"{"authenticated":true,"user":"ada","domain":"CORP","mic":true}"#)
            #expect(sandbox.router.ntlmHandshakesCompleted == 1)
        }
    }

    @Test func theHandshakesConnectionIsClosedAfterTheRequestItUnlocks() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [NTLMAuthentication(username: "ada", password: "s3cret")] }
            _ = try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret"), session: session)
            // The first, anonymous request's pooled connection and the handshake's own.
            #expect(sandbox.connectionCount == 2)
            try await waitUntil { sandbox.openConnectionCount == 1 }
        }
    }

    @Test func basicAuthenticationAnswersNTLMBeforeBasic() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [BasicAuthentication(username: "ada", password: "s3cret")] }
            let response = try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret"), session: session)
            #expect(response.statusCode == 200)
            #expect(sandbox.router.ntlmHandshakesCompleted == 1)
        }
    }

    @Test func aLimitedAuthenticationKeepsItsHandshakeOnItsOwnConnection() async throws {
        try await withSandbox { sandbox, session in
            let origin = try #require(URL(string: sandbox.url("/"))?.origin)
            for authentication: any HTTPAuthentication in [
                NTLMAuthentication(username: "ada", password: "s3cret"), BasicAuthentication(username: "ada", password: "s3cret"),
            ] {
                try session.update { $0.authentications = [authentication.limited(to: [origin])] }
                let response = try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret"), session: session)
                #expect(response.statusCode == 200)
            }
            #expect(sandbox.router.ntlmHandshakesCompleted == 2)
            // Limited to another origin: no handshake, the server's 401.
            try session.update { $0.authentications = [NTLMAuthentication(username: "ada", password: "s3cret").limited(to: ["https://intranet.example"])] }
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret"), session: session) }
            #expect(error?.statusCode == 401)
            #expect(sandbox.router.ntlmHandshakesCompleted == 2)
        }
    }

    @Test func whenAServerOffersDigestAndNTLMDigestIsAnswered() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [BasicAuthentication(username: "ada", password: "s3cret")] }
            let response = try await HTTPCycle.get(sandbox.url("/digest-auth/auth/ada/s3cret/SHA-256?ntlm=1"), session: session)
            #expect(response.statusCode == 200)
            #expect(sandbox.router.ntlmHandshakesCompleted == 0)
            // Only Digest answers this route: a handshake would have ended in its 401.
            #expect(sandbox.connectionCount == 1)
        }
    }

    @Test func basicAuthenticationWithoutNTLMAnswersBasicAndGetsThe401() async throws {
        try await withSandbox { sandbox, session in
            let basic = BasicAuthentication(username: "ada", password: "s3cret", schemes: [.basic, .digest])
            try session.update { $0.authentications = [basic] }
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret"), session: session) }
            #expect(error?.statusCode == 401)
            #expect(sandbox.router.ntlmHandshakesCompleted == 0)
        }
    }

    @Test func aWrongPasswordEndsWithThe401AfterOneHandshake() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [NTLMAuthentication(username: "ada", password: "wrong")] }
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret"), session: session) }
            #expect(error?.statusCode == 401)
            // The anonymous request, the negotiate and the authenticate: nothing more.
            #expect(sandbox.connectionCount == 2)
        }
    }

    /// Many handshakes at once over a pool of two: each keeps its own connection, where a
    /// pool's connection handed to another request would mix the legs up.
    @Test func concurrentHandshakesEachKeepTheirConnection() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.transport.connectionPool.maximumConnectionsPerHost = 2
        try await withSandbox(configuration: configuration) { sandbox, session in
            try session.update { $0.authentications = [NTLMAuthentication(username: "ada", password: "s3cret")] }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret"), session: session).statusCode  }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 16))
            #expect(sandbox.router.ntlmHandshakesCompleted == 16)
        }
    }

    @Test func aProxysChallengeIsAnsweredInProxyAuthorization() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [BasicAuthentication(username: "ada", password: "s3cret")] }
            let response = try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret?proxy=1"), session: session)
            #expect(response.statusCode == 200)
        }
    }

    @Test func urlSessionTransportRefusesTheHandshakeWithAClearError() async throws {
        try await withSandbox(transport: .urlSession) { sandbox, session in
            try session.update { $0.authentications = [NTLMAuthentication(username: "ada", password: "s3cret")] }
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret"), session: session) }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.description.contains("AsyncHTTPClientTransport") == true)
        }
    }

    @Test func aChallengeTokenThatIsNotNTLMFailsTheCycleAsAnAuthenticationError() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [NTLMAuthentication(username: "ada", password: "s3cret")] }
            // The negotiate is answered with a token that is not a CHALLENGE_MESSAGE.
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/ntlm-auth/ada/s3cret?garble=1"), session: session) }
            #expect(error?.code == .authentication)
            #expect((error?.underlying as? AuthError)?.code == .invalidChallenge)
        }
    }
}
