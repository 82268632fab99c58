import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// A 407 with `Proxy-Authenticate`, as a forward proxy answers a plain request, is answered in
/// `Proxy-Authorization` (never `Authorization`).
@Suite struct ProxyChallengeTests {
    @Test(arguments: [
        ("basic", #"Basic realm="proxy""#), ("digest", #"Digest realm="proxy", nonce="n0", qop="auth", algorithm=MD5"#),
    ])
    func a407IsAnsweredInProxyAuthorization(scheme: String, challenge: String) async throws {
        let server = try await ScriptedServer.start { request in
            let head = request.head.lowercased()
            if head.contains("proxy-authorization: \(scheme) "), !head.contains("\r\nauthorization:") {
                return [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: 7", "Connection: close"]) + "through"), .close]
            }
            return [.send(responseHead("HTTP/1.1 407 Proxy Authentication Required", ["Proxy-Authenticate: \(challenge)", "Content-Length: 0", "Connection: close"])), .close]
        }
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        try session.update {
            $0.authentications = scheme == "basic"
                ? [BasicAuthentication(username: "ada", password: "pw")] : [DigestAuthentication(username: "ada", password: "pw")]
        }
        let response = try await HTTPCycle.get(server.url("/via-proxy"), session: session)
        #expect(response.text == "through")
        try await session.shutdown()
        try await server.shutdown()
    }
}

/// A server whose `rspauth` does not prove it knows the password is not believed.
@Suite struct ServerProofTests {
    @Test func aWrongRspauthFailsTheCycle() async throws {
        let server = try await ScriptedServer.start { request in
            guard request.head.lowercased().contains("\r\nauthorization: digest ") else {
                return [.send(responseHead("HTTP/1.1 401 Unauthorized", [
                    #"WWW-Authenticate: Digest realm="r", nonce="n0", qop="auth", algorithm=SHA-256"#,
                    "Content-Length: 0", "Connection: close",
                ])), .close]
            }
            return [.send(responseHead("HTTP/1.1 200 OK", [
                #"Authentication-Info: qop=auth, rspauth="0000", cnonce="x", nc=00000001"#, "Content-Length: 2", "Connection: close",
            ]) + "ok"), .close]
        }
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        try session.update { $0.authentications = [DigestAuthentication(username: "ada", password: "pw")] }
        let error = await httpError { _ = try await HTTPCycle.get(server.url("/private"), session: session) }
        #expect((error?.underlying as? AuthError)?.code == .serverNotAuthenticated)
        #expect(error?.description.contains("rspauth") == true)
        try await session.shutdown()
        try await server.shutdown()
    }
}
