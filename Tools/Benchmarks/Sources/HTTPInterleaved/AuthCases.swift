import Foundation
import Jewzruxin

/// `AUTH=1`: preemptive Digest (SHA-256, qop auth: two hashes and a nonce count per request)
/// against preemptive Basic (a constant header), each through the cycle's authentication path,
/// on sessions of their own. Each authentication learns its protection space from a challenge
/// made here, so every measured request is authorized without a 401.
func authCases(hello: String) async throws -> (cases: [Case], sessions: [HTTPSession]) {
    guard let url = URL(string: hello) else { throw BenchFailure(hello) }
    func primed(_ authentication: any HTTPAuthentication, challenge: String) async throws -> HTTPSession {
        let session = HTTPSession()
        var request = HTTPRequest(url: url)
        let response = HTTPResponse(statusCode: 401, headers: ["WWW-Authenticate": challenge], url: url)
        guard try await authentication.respond(to: response, retrying: &request) else { throw BenchFailure(hello) }
        try session.update { $0.authentications = [authentication] }
        return session
    }
    let digest = try await primed(
        DigestAuthentication(username: "Mufasa", password: "Circle of Life"),
        challenge: #"Digest realm="bench", nonce="7ypf/xlj9XXwfDPEoM4URrv", qop="auth", algorithm=SHA-256"#)
    let basic = try await primed(BasicAuthentication(username: "Mufasa", password: "Circle of Life"), challenge: #"Basic realm="bench""#)
    let cases = atBothConcurrencies(
        "preemptive Digest vs Basic",
        Contender(name: "HTTPCycle.get, Digest SHA-256") { try await HTTPCycle.get(hello, session: digest) },
        Contender(name: "HTTPCycle.get, Basic") { try await HTTPCycle.get(hello, session: basic) })
    return (cases, [digest, basic])
}
