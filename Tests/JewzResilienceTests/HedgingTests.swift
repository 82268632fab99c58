import Foundation
import JewzHTTPCore
import JewzResilience
import JewzSandbox
import JewzTestSupport
import Testing

/// Hedging against the Sandbox's counter, whose first attempt of a key can be made slow: a
/// hedge sent after the delay answers first and the slow attempt is cancelled; a call that is
/// not safe to send twice is never hedged.
@Suite struct HedgingTests {
    /// A session that hedges as `configuration` says, without retries, so that every attempt
    /// the counter sees is a hedge's.
    private func withHedging(_ hedging: Hedging, _ body: (Sandbox, HTTPSession) async throws -> Void) async throws {
        try await withSandbox(configuration: .init { $0.networkMiddleware = [hedging]; $0.retryPolicy = .never }, body)
    }

    /// The first attempt to reach the server answering after 120 s, the next at once.
    private func slowFirst(_ sandbox: Sandbox, key: String) -> URL {
        URL(string: sandbox.url("/counter?key=\(key)&fail=1&status=503&delay=120")) ?? URL(fileURLWithPath: "/")
    }

    @Test func aHedgeOvertakesASlowAttemptWhichIsCancelled() async throws {
        try await withHedging(Hedging(.init(delay: .fixed(.milliseconds(50))))) { sandbox, session in
            let started = ContinuousClock.now
            let response = try await session.send(HTTPRequest(url: slowFirst(sandbox, key: "get")))
            #expect(response.text == "attempt 2 succeeds")
            // The group returns only once the slow attempt ended: it was cancelled, not waited for.
            #expect(ContinuousClock.now - started < .seconds(100))
            #expect(sandbox.router.requestCount(forKey: "get") == 2)
        }
    }

    @Test func aPOSTIsNotHedgedUnlessItCarriesAnIdempotencyKey() async throws {
        try await withHedging(Hedging(.init(delay: .fixed(.milliseconds(50))))) { sandbox, session in
            let url = URL(string: sandbox.url("/counter?key=post&fail=1&status=503&delay=0.5")) ?? URL(fileURLWithPath: "/")
            let refused = await httpError { _ = try await session.send(HTTPRequest(url: url, method: .post, data: Data("order".utf8))) }
            #expect(refused?.statusCode == 503)
            #expect(sandbox.router.requestCount(forKey: "post") == 1, "a POST sent twice could order twice")

            let keyed = HTTPRequest(url: slowFirst(sandbox, key: "keyed"), method: .post, headers: ["Idempotency-Key": "order-1"], data: Data("order".utf8))
            let answer = try await session.send(keyed)
            #expect(answer.text == "attempt 2 succeeds")
            #expect(sandbox.router.requestCount(forKey: "keyed") == 2)
        }
    }

    @Test func aCallCanTurnHedgingOff() async throws {
        try await withHedging(Hedging(.init(delay: .fixed(.milliseconds(50))))) { sandbox, session in
            let url = URL(string: sandbox.url("/counter?key=off&fail=1&status=503&delay=0.5")) ?? URL(fileURLWithPath: "/")
            var options = HTTPRequestOptions()
            options.resilience.hedging = .off
            let refused = await httpError { _ = try await session.send(HTTPRequest(url: url), options: options) }
            #expect(refused?.statusCode == 503)
            #expect(sandbox.router.requestCount(forKey: "off") == 1)
        }
    }

    @Test func anOverloadedAnswerWaitsForTheHedge() async throws {
        // The first attempt's 503 comes at 100 ms, the hedge's 200 (sent at 50 ms) at 350 ms.
        try await withHedging(Hedging(.init(delay: .fixed(.milliseconds(50))))) { sandbox, session in
            let url = URL(string: sandbox.url("/counter?key=busy&fail=1&status=503&delay=0.1&hold=0.3")) ?? URL(fileURLWithPath: "/")
            let response = try await session.send(HTTPRequest(url: url))
            #expect(response.statusCode == 200)
            #expect(sandbox.router.requestCount(forKey: "busy") == 2)
        }
    }

    @Test func thePercentileDelayFollowsTheOriginsLatency() async throws {
        let hedging = Hedging(.init(delay: .percentile(0.95, minimum: .milliseconds(1)), maximumAttempts: 1))
        try await withHedging(hedging) { sandbox, session in
            let origin = sandbox.url("")
            #expect(hedging.delay(for: origin) == .milliseconds(1), "no latency known yet")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<25 {
                    group.addTask {
                        _ = try await session.send(HTTPRequest(url: URL(string: sandbox.url("/counter?key=slow\(index)&fail=0&hold=0.05")) ?? URL(fileURLWithPath: "/")))
                    }
                }
                try await group.waitForAll()
            }
            #expect(hedging.delay(for: origin) >= .milliseconds(50), "every answer took 50 ms or more")
        }
    }
}
