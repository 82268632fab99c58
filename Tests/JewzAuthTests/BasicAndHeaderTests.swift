import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// Basic challenges, the header processors, and credentials kept to their origin.
@Suite struct BasicAndHeaderTests {
    @Test func basicAnswersAChallengeThenSendsPreemptively() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [BasicAuthentication(username: "test", password: "12345")] }
            let response = try await HTTPCycle.get(sandbox.url("/hello_with_basic_auth"), session: session)
            #expect(response.text == "Hello World")
            // Same origin, same directory ("/"): sent without a challenge.
            let inspection = try Inspection(try await HTTPCycle.get(sandbox.url("/inspect"), session: session))
            #expect(inspection.values("Authorization") == ["Basic dGVzdDoxMjM0NQ=="])
        }
    }

    @Test func aWrongBasicPasswordEndsWithThe401() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [BasicAuthentication(username: "test", password: "nope")] }
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/hello_with_basic_auth"), session: session) }
            #expect(error?.statusCode == 401)
        }
    }

    @Test func credentialsStayWithTheirOriginAcrossRedirects() async throws {
        let other = try await Sandbox.start()
        defer { Task { try? await other.shutdown() } }
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [BasicAuthentication(username: "test", password: "12345")] }
            _ = try await HTTPCycle.get(sandbox.url("/hello_with_basic_auth"), session: session)
            // A redirect to another origin carries neither the preemptive credentials…
            let away = try await HTTPCycle.get(
                sandbox.url("/redirect-to"), parameters: ["url": .init(other.url("/inspect"))], session: session)
            #expect(try Inspection(away).values("Authorization").isEmpty)
            // …nor an answer to that origin's challenge.
            let error = await httpError {
                _ = try await HTTPCycle.get(
                    sandbox.url("/redirect-to"), parameters: ["url": .init(other.url("/hello_with_basic_auth"))], session: session)
            }
            #expect(error?.statusCode == 401)
        }
    }

    @Test func headerProcessorsSetTheirFieldUnlessTheRequestDid() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.requestProcessors = [
                BearerTokenProcessor(token: "t0k3n"), AuthorizationHeaderProcessor(scheme: "", credentials: "k3y", field: "X-Api-Key"),
            ] }
            let inspection = try Inspection(try await HTTPCycle.get(sandbox.url("/inspect"), session: session))
            #expect(inspection.values("Authorization") == ["Bearer t0k3n"])
            #expect(inspection.values("X-Api-Key") == ["k3y"])
            try session.update { $0.requestProcessors = [BasicAuthProcessor(username: "test", password: "12345")] }
            let answered = try await HTTPCycle.get(sandbox.url("/hello_with_basic_auth"), session: session)
            #expect(answered.text == "Hello World")
        }
    }
}

/// One `BasicAuthentication` answers whichever scheme the server offers, the strongest first.
@Suite struct SchemeChoiceTests {
    @Test func itAnswersDigestWhereTheServerAsksForDigest() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [BasicAuthentication(username: "Mufasa", password: "Circle of Life")] }
            let response = try await HTTPCycle.get(sandbox.url("/digest-auth/auth/Mufasa/Circle%20of%20Life/SHA-256"), session: session)
            #expect(response.statusCode == 200)
            try session.update { $0.authentications = [BasicAuthentication(username: "Mufasa", password: "Circle of Life", schemes: [.basic])] }
            let refused = await httpError { try await HTTPCycle.get(sandbox.url("/digest-auth/auth/Mufasa/Circle%20of%20Life/MD5"), session: session) }
            #expect(refused?.statusCode == 401, "Basic alone does not answer Digest")
        }
    }

    /// A server that offers both gets Digest, which never sends the password.
    @Test func ofBothOffersDigestIsChosen() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.authentications = [BasicAuthentication(username: "ada", password: "pw")]
        try await withScriptedServer(configuration: configuration, { request in
            guard request.index > 0 else {
                return [.send(responseHead("HTTP/1.1 401 Unauthorized", [
                    "WWW-Authenticate: Basic realm=\"r\"", "WWW-Authenticate: Digest realm=\"r\", nonce=\"abc\", qop=\"auth\"", "Content-Length: 0",
                ]))]
            }
            let sent = request.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("authorization:") } ?? "none"
            return [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: \(sent.utf8.count)"]) + sent)]
        }) { server, session in
            let response = try await HTTPCycle.get(server.url("/both"), session: session)
            #expect(response.text?.hasPrefix("Authorization: Digest ") == true, "\(response.text ?? "")")
        }
    }
}
