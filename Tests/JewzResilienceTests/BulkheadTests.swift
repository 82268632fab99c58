import Foundation
import JewzHTTPCore
import JewzResilience
import JewzSandbox
import JewzTestSupport
import Testing

/// The bulkhead against the Sandbox: so many calls in flight to an origin, the next ones
/// waiting in order, the rest refused; a place freed goes to the first waiter.
@Suite struct BulkheadTests {
    @Test func callsPastTheLimitWaitThenAreRefused() async throws {
        let bulkhead = Bulkhead(maximumConcurrentCalls: 2, maximumWaitingCalls: 1)
        try await withSandbox(configuration: .init { $0.networkMiddleware = [bulkhead]; $0.retryPolicy = .never }) { sandbox, session in
            let origin = sandbox.url("")
            let held = (0..<2).map { _ in Task { try await HTTPCycle.get(sandbox.url("/counter?key=held&fail=0&hold=60"), session: session).statusCode } }
            try await waitUntil { sandbox.router.requestCount(forKey: "held") == 2 }
            let waiting = Task { try await HTTPCycle.get(sandbox.url("/counter?key=waited&fail=0"), session: session).statusCode }
            try await waitUntil { bulkhead.calls(to: origin).waiting == 1 }
            #expect(bulkhead.calls(to: origin).inFlight == 2)

            let refused = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect((refused?.underlying as? ResilienceError)?.code == .bulkheadFull, "\(String(describing: refused))")
            #expect(sandbox.router.requestCount(forKey: "waited") == 0, "the waiter is still waiting")

            // A place freed goes to the waiter.
            held[0].cancel()
            #expect(try await waiting.value == 200)
            held[1].cancel()
            for call in held { _ = try? await call.value }
            try await waitUntil { bulkhead.calls(to: origin) == (0, 0) }
        }
    }

    @Test func aWaiterCancelledLeavesTheQueue() async throws {
        let bulkhead = Bulkhead(maximumConcurrentCalls: 1, maximumWaitingCalls: 4)
        try await withSandbox(configuration: .init { $0.networkMiddleware = [bulkhead]; $0.retryPolicy = .never }) { sandbox, session in
            let origin = sandbox.url("")
            let held = Task { try await HTTPCycle.get(sandbox.url("/counter?key=one&fail=0&hold=60"), session: session).statusCode }
            try await waitUntil { sandbox.router.requestCount(forKey: "one") == 1 }
            let waiter = Task { try await HTTPCycle.get(sandbox.url("/counter?key=never&fail=0"), session: session).statusCode }
            try await waitUntil { bulkhead.calls(to: origin).waiting == 1 }
            waiter.cancel()
            let cancelled = await httpError { _ = try await waiter.value }
            #expect(cancelled?.code == .cancelled)
            #expect(bulkhead.calls(to: origin).waiting == 0)
            held.cancel()
            _ = try? await held.value
            #expect(sandbox.router.requestCount(forKey: "never") == 0)
            try await waitUntil { bulkhead.calls(to: origin) == (0, 0) }
        }
    }
}
