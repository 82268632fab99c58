import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// Digest against the Sandbox's RFC 7616 server, which refuses replayed nonce counts.
@Suite struct DigestAuthenticationTests {
    static let user = "Mufasa", password = "Circle of Life"

    /// Every algorithm with every qop, but the `-sess` ones without qop, which have no cnonce
    /// to hash (RFC 7616 offers them only with a qop).
    static let combinations = ["MD5", "MD5-sess", "SHA-256", "SHA-256-sess"].flatMap { algorithm in
        ["auth", "auth-int", "none"].filter { !(algorithm.hasSuffix("-sess") && $0 == "none") }.map { (algorithm, $0) }
    }

    @Test(arguments: combinations)
    func everyAlgorithmAndQOPIsAnswered(algorithm: String, qop: String) async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [DigestAuthentication(username: Self.user, password: Self.password)] }
            let cycle = try HTTPCycle(
                sandbox.url("/digest-auth/\(qop)/\(Self.user)/Circle%20of%20Life/\(algorithm)"), method: .post, session: session)
            cycle.request.data = Data("the body auth-int covers".utf8)
            try await cycle.start()
            #expect(cycle.response?.statusCode == 200)
        }
    }

    @Test func aWrongPasswordEndsWithThe401WithoutLooping() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [DigestAuthentication(username: Self.user, password: "wrong")] }
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/digest-auth/auth/Mufasa/right/MD5"), session: session) }
            #expect(error?.statusCode == 401)
        }
    }

    @Test func laterRequestsArePreemptiveAndAStaleNonceIsRenewedWithoutAsking() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [DigestAuthentication(username: Self.user, password: "pw")] }
            let url = sandbox.url("/digest-auth/auth/Mufasa/pw/SHA-256?stale-after=2")
            for _ in 0..<5 {
                let answered = try await HTTPCycle.get(url, session: session)
                #expect(answered.statusCode == 200)
            }
            // Each nonce served two requests (nc 1 and 2), then came back stale and was replaced.
            let counts = sandbox.router.digestNonceCounts.values.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
            #expect(counts.map(\.count) == [2, 2, 1])
            #expect(counts.allSatisfy { $0 == Array(1...$0.count) })
        }
    }

    @Test func concurrentRequestsNeverShareANonceCount() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [DigestAuthentication(username: Self.user, password: "pw")] }
            let url = sandbox.url("/digest-auth/auth/Mufasa/pw/MD5")
            let answered = try await HTTPCycle.get(url, session: session)
            #expect(answered.statusCode == 200)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<64 {
                    group.addTask { try await HTTPCycle.get(url, session: session).statusCode  }
                }
                for try await status in group { #expect(status == 200) }
            }
            let counts = try #require(sandbox.router.digestNonceCounts.values.first { !$0.isEmpty })
            #expect(counts.sorted() == Array(1...65))
        }
    }

    @Test func nextNonceIsUsedAndRspauthIsChecked() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [DigestAuthentication(username: Self.user, password: "pw")] }
            let url = sandbox.url("/digest-auth/auth/Mufasa/pw/SHA-256?next-nonce=1")
            for _ in 0..<3 {
                let answered = try await HTTPCycle.get(url, session: session)
                #expect(answered.statusCode == 200)
            }
            // Every request after the first used the nonce the previous answer offered, at count 1.
            let counts = sandbox.router.digestNonceCounts.values.filter { !$0.isEmpty }
            #expect(counts.count == 3 && counts.allSatisfy { $0 == [1] })
        }
    }

    @Test func userhashSendsTheHashedName() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [DigestAuthentication(username: Self.user, password: "pw")] }
            let response = try await HTTPCycle.get(sandbox.url("/digest-auth/auth/Mufasa/pw/SHA-256?userhash=1"), session: session)
            #expect(response.statusCode == 200)
        }
    }

    @Test func authIntCannotHashAOneShotStream() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.authentications = [DigestAuthentication(username: Self.user, password: "pw")] }
            let url = sandbox.url("/digest-auth/auth-int/Mufasa/pw/MD5")
            _ = try? await HTTPCycle.get(url, session: session)  // learns the space
            let cycle = try HTTPCycle(url, method: .post, session: session)
            cycle.request.body = .stream(HTTPBodyStream(AsyncThrowingStream { $0.yield(Data("x".utf8)); $0.finish() }))
            let error = await httpError { try await cycle.start() }
            #expect((error?.underlying as? AuthError)?.code == .bodyNotHashable)
        }
    }
}
