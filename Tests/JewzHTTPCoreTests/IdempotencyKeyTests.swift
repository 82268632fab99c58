import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// A POST with an `Idempotency-Key` is retried as an idempotent request, and a session can give
/// every POST and PATCH a key of its own, the same across the call's retries.
@Suite struct IdempotencyKeyTests {
    /// A POST of `/counter` that fails twice with 503, then succeeds.
    private func post(_ sandbox: Sandbox, key: String, headers: HTTPHeaderFields = [:]) -> HTTPRequest {
        var request = HTTPRequest(url: URL(string: sandbox.url("/counter?key=\(key)&fail=2"))!, method: .post, headers: headers)
        request.data = Data("order".utf8)
        return request
    }

    @Test func aPostWithAKeyIsRetriedAndOneWithoutIsNot() async throws {
        try await withSandbox(configuration: .init { $0.retryPolicy = quickPolicy() }) { sandbox, session in
            let plain = await httpError { _ = try await session.send(post(sandbox, key: "plain")) }
            #expect(plain?.statusCode == 503, "a POST the server may have acted on is not sent again")
            #expect(sandbox.router.requestCount(forKey: "plain") == 1)

            let keyed = try await session.send(post(sandbox, key: "keyed", headers: ["Idempotency-Key": "order-42"]))
            #expect(keyed.text == "attempt 3 succeeds")
            #expect(sandbox.router.requestCount(forKey: "keyed") == 3)
        }
    }

    @Test func theSessionGivesEachPostAKeyKeptAcrossItsRetries() async throws {
        let keys = Mutex<[String]>([])
        let server = try await ScriptedServer.start { request in
            let key = request.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("idempotency-key:") }
            keys.withLock { $0.append(key.map { String($0.dropFirst("idempotency-key:".count)).trimmingCharacters(in: .whitespaces) } ?? "") }
            let status = request.index < 2 ? "503 Service Unavailable" : "200 OK"
            return [.send("HTTP/1.1 \(status)\r\nContent-Length: 2\r\n\r\nok")]
        }
        let session = HTTPSession(configuration: .init {
            $0.logger = quietLogger
            $0.retryPolicy = quickPolicy()
            $0.addsIdempotencyKeys = true
        })
        var request = HTTPRequest(url: try #require(URL(string: server.url("/orders"))), method: .post)
        request.data = Data("{}".utf8)
        #expect(try await session.send(request).statusCode == 200)
        let seen = keys.withLock { $0 }
        #expect(seen.count == 3)
        #expect(Set(seen).count == 1 && seen[0].count == 36, "one key, a UUID, on every attempt: \(seen)")

        // A GET is idempotent already, and a key the caller gave is kept.
        var given = request
        given.headers["Idempotency-Key"] = "mine"
        _ = try await session.send(given)
        #expect(keys.withLock { $0.last } == "mine")
        try await session.shutdown()
        try await server.shutdown()
    }
}
