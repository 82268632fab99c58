import Foundation
import JewzHTTPCore
import JewzLocking
import JewzResilience
import JewzSandbox
import JewzTestSupport
import Testing

/// A clock the test moves, so that an open circuit's duration passes without a wait.
final class ManualClock: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    var now: ContinuousClock.Instant { instant.withLock { $0 } }

    func advance(by duration: Duration) { instant.withLock { $0 += duration } }
}

/// The circuit breaker against the Sandbox: it opens on failures, fails fast while open, lets a
/// probe through after its time, and closes or opens again by the probe's outcome.
@Suite struct CircuitBreakerTests {
    private static let configuration = CircuitBreaker.Configuration(failureRatio: 0.5, minimumCalls: 4, window: .seconds(60), openDuration: .seconds(30))

    /// A session through `breaker`, without retries, so that each call is one exchange.
    private func withBreaker(_ breaker: CircuitBreaker, _ body: (Sandbox, HTTPSession) async throws -> Void) async throws {
        try await withSandbox(configuration: .init { $0.networkMiddleware = [breaker]; $0.retryPolicy = .never }, body)
    }

    /// How a call ended, as these tests tell outcomes apart.
    enum Outcome: Equatable {
        case status(Int)
        case refused(ResilienceError)
        case failed

        static func == (lhs: Outcome, rhs: Outcome) -> Bool {
            switch (lhs, rhs) {
            case (.status(let a), .status(let b)): a == b
            case (.refused(let a), .refused(let b)): a.code == b.code
            case (.failed, .failed): true
            default: false
            }
        }
    }

    /// The status a call got, the resilience error that stopped it, or that it failed.
    private func outcome(_ url: String, _ session: HTTPSession) async -> Outcome {
        do {
            return .status(try await HTTPCycle.get(url, session: session).statusCode)
        } catch let error as HTTPError {
            if let stopped = error.underlying as? ResilienceError { return .refused(stopped) }
            return error.statusCode.map(Outcome.status) ?? .failed
        } catch {
            return .failed
        }
    }

    @Test func failuresOpenTheCircuitWhichFailsFastUntilAProbeSucceeds() async throws {
        let clock = ManualClock()
        let breaker = CircuitBreaker(Self.configuration, clock: { clock.now })
        try await withBreaker(breaker) { sandbox, session in
            let failing = sandbox.url("/counter?key=down&fail=100&status=503")
            for _ in 0..<2 { #expect(await outcome(failing, session) == .status(503)) }
            #expect(await outcome(sandbox.url("/hello/"), session) == .status(200))
            #expect(breaker.state(of: sandbox.url("")) == .closed, "three calls are fewer than the minimum")
            #expect(await outcome(failing, session) == .status(503))
            #expect(breaker.state(of: sandbox.url("")) == .open(until: clock.now + .seconds(30)), "3 of 4 failed")

            // Open: refused at once, the server never asked.
            guard case .refused(let refused) = await outcome(failing, session) else {
                Issue.record("an open circuit let a call through")
                return
            }
            #expect(refused.code == .circuitOpen && refused.description.contains("30.0 s more"), "\(refused)")
            #expect(sandbox.router.requestCount(forKey: "down") == 3)

            // Its time over, a probe goes through; it fails, and the circuit opens again.
            clock.advance(by: .seconds(31))
            #expect(await outcome(failing, session) == .status(503))
            #expect(sandbox.router.requestCount(forKey: "down") == 4)
            #expect(breaker.state(of: sandbox.url("")) == .open(until: clock.now + .seconds(30)))

            // The next probe succeeds: closed, and calls are counted afresh.
            clock.advance(by: .seconds(31))
            #expect(await outcome(sandbox.url("/hello/"), session) == .status(200))
            #expect(breaker.state(of: sandbox.url("")) == .closed)
            #expect(await outcome(failing, session) == .status(503))
            #expect(breaker.state(of: sandbox.url("")) == .closed)
        }
    }

    @Test func eachOriginHasACircuitOfItsOwn() async throws {
        let other = try await Sandbox.start()
        defer { Task { try? await other.shutdown() } }
        let breaker = CircuitBreaker(Self.configuration)
        try await withBreaker(breaker) { sandbox, session in
            for _ in 0..<4 { _ = await outcome(sandbox.url("/status/500"), session) }
            #expect(breaker.state(of: sandbox.url("")) != .closed)
            #expect(await outcome(other.url("/hello/"), session) == .status(200))
            #expect(breaker.state(of: other.url("")) == .closed)
        }
    }

    @Test func aRefusedConnectionCountsAndACancelledCallDoesNot() async throws {
        let breaker = CircuitBreaker(Self.configuration)
        try await withRefusingPort { port in
            try await withBreaker(breaker) { sandbox, session in
                let refused = "http://127.0.0.1:\(port)/"
                for _ in 0..<4 { #expect(await outcome(refused, session) == .failed) }
                #expect(breaker.state(of: refused) != .closed)

                let slow = Task { await outcome(sandbox.url("/counter?key=slow&fail=0&hold=60"), session) }
                try await waitUntil { sandbox.router.requestCount(forKey: "slow") == 1 }
                slow.cancel()
                _ = await slow.value
                #expect(breaker.state(of: sandbox.url("")) == .closed)
            }
        }
    }
}
