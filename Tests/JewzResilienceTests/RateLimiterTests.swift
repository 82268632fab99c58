import Foundation
import JewzHTTPCore
import JewzLocking
import JewzResilience
import JewzSandbox
import JewzTestSupport
import Testing

/// The rate limiter against the Sandbox's rate-limited endpoint: a client that honours the
/// announced policy sees no 429, where one that does not collects them.
@Suite struct RateLimiterTests {
    /// `count` calls started `interval` apart, each in a task of its own (a client calling at
    /// a rate, not one after the other), and their statuses.
    private func callAtARate(_ url: String, count: Int, interval: Duration, session: HTTPSession) async -> [Int] {
        await withTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask {
                    try? await Task.sleep(for: interval * index)
                    do {
                        return try await HTTPCycle.get(url, session: session).statusCode
                    } catch let error as HTTPError {
                        return error.statusCode ?? -1
                    } catch {
                        return -1
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func aClientThatHonoursTheAnnouncedPolicySeesNo429() async throws {
        let limiter = RateLimiter()
        try await withSandbox(configuration: .init { $0.networkMiddleware = [limiter]; $0.retryPolicy = .never }) { sandbox, session in
            // 50 calls a second against 10 a second: the limiter spaces them out.
            let statuses = await callAtARate(sandbox.url("/ratelimited?key=honoured&limit=10&window=1"), count: 30, interval: .milliseconds(20), session: session)
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            #expect(sandbox.router.rateLimitCounts(forKey: "honoured") == (30, 0))
            #expect(limiter.limits(for: sandbox.url("")).first?.requests == 10)
        }
    }

    @Test func withoutTheLimiterTheSameCallsCollect429s() async throws {
        try await withSandbox(configuration: .init { $0.retryPolicy = .never }) { sandbox, session in
            // All at once, against 3 a second: however slow the machine, more than 3 land in a second.
            let statuses = await callAtARate(sandbox.url("/ratelimited?key=ignored&limit=3&window=1"), count: 30, interval: .zero, session: session)
            #expect(statuses.contains(429), "the endpoint does limit: \(statuses)")
        }
    }

    @Test func aConfiguredLimitSpacesCallsAndAWaitTooLongFailsAtOnce() async throws {
        let limiter = RateLimiter(.init(limits: [RateLimit(requests: 2, per: .seconds(60))], learnsFromServers: false, maximumWait: .seconds(5)))
        try await withSandbox(configuration: .init { $0.networkMiddleware = [limiter]; $0.retryPolicy = .never }) { sandbox, session in
            for _ in 0..<2 {
                let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
                #expect(response.statusCode == 200)
            }
            let started = ContinuousClock.now
            let refused = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect((refused?.underlying as? ResilienceError)?.code == .rateLimited, "\(String(describing: refused))")
            #expect(ContinuousClock.now - started < .seconds(5), "refused at once, not after the wait")
        }
    }
}
