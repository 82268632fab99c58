import Foundation
import JewzHTTPCore
import JewzResilience
import JewzSandbox
import JewzTestSupport
import Testing

/// What one call changes of its session's resilience stages (`options.resilience`): a health
/// check through an open circuit, an urgent call past a full bulkhead, a call that would rather
/// fail than wait for its rate-limited turn.
@Suite struct PerCallResilienceTests {
    @Test func aCallBypassingTheBreakerGoesThroughAnOpenCircuit() async throws {
        let breaker = CircuitBreaker(.init(failureRatio: 0.5, minimumCalls: 2, window: .seconds(60), openDuration: .seconds(60)))
        try await withSandbox(configuration: .init { $0.networkMiddleware = [breaker]; $0.retryPolicy = .never }) { sandbox, session in
            let failing = URL(string: sandbox.url("/counter?key=down&fail=100&status=503")) ?? URL(fileURLWithPath: "/")
            for _ in 0..<2 { _ = await httpError { _ = try await session.send(HTTPRequest(url: failing)) } }
            let refused = await httpError { _ = try await session.send(HTTPRequest(url: failing)) }
            #expect((refused?.underlying as? ResilienceError)?.code == .circuitOpen)

            var options = HTTPRequestOptions()
            options.resilience.bypassesCircuitBreaker = true
            let health = try await session.send(HTTPRequest(url: URL(string: sandbox.url("/hello/")) ?? failing), options: options)
            #expect(health.statusCode == 200)
            #expect(sandbox.router.requestCount(forKey: "down") == 2)
            guard case .open = breaker.state(of: sandbox.url("")) else {
                Issue.record("a bypassing call was counted and closed the circuit")
                return
            }
        }
    }

    @Test func aCallBypassingTheBulkheadDoesNotWait() async throws {
        let bulkhead = Bulkhead(maximumConcurrentCalls: 1, maximumWaitingCalls: 0)
        try await withSandbox(configuration: .init { $0.networkMiddleware = [bulkhead]; $0.retryPolicy = .never }) { sandbox, session in
            let held = Task { try await session.send(HTTPRequest(url: URL(string: sandbox.url("/counter?key=held&fail=0&hold=60")) ?? URL(fileURLWithPath: "/"))) }
            try await waitUntil { sandbox.router.requestCount(forKey: "held") == 1 }
            let hello = URL(string: sandbox.url("/hello/")) ?? URL(fileURLWithPath: "/")
            let refused = await httpError { _ = try await session.send(HTTPRequest(url: hello)) }
            #expect((refused?.underlying as? ResilienceError)?.code == .bulkheadFull)

            var options = HTTPRequestOptions()
            options.resilience.bypassesBulkhead = true
            #expect(try await session.send(HTTPRequest(url: hello), options: options).statusCode == 200)
            held.cancel()
            _ = try? await held.value
        }
    }

    @Test func aCallCanRatherFailThanWaitItsTurn() async throws {
        let limiter = RateLimiter(.init(limits: [RateLimit(requests: 1, per: .seconds(2))], learnsFromServers: false, maximumWait: .seconds(30)))
        try await withSandbox(configuration: .init { $0.networkMiddleware = [limiter]; $0.retryPolicy = .never }) { sandbox, session in
            let hello = URL(string: sandbox.url("/hello/")) ?? URL(fileURLWithPath: "/")
            let first = try await session.send(HTTPRequest(url: hello))
            #expect(first.statusCode == 200)
            var options = HTTPRequestOptions()
            options.resilience.maximumRateLimitWait = .zero
            let refused = await httpError { _ = try await session.send(HTTPRequest(url: hello), options: options) }
            #expect((refused?.underlying as? ResilienceError)?.code == .rateLimited, "\(String(describing: refused))")
            // Without the option, the call waits its turn (under two seconds) and goes.
            #expect(try await session.send(HTTPRequest(url: hello)).statusCode == 200)
        }
    }
}
