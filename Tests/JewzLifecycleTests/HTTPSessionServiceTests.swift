import Foundation
import JewzHTTPCore
import JewzLifecycle
import JewzSandbox
import JewzTestSupport
import Logging
import ServiceLifecycle
import ServiceLifecycleTestKit
import Synchronization
import Testing

/// A session in a ServiceGroup: at graceful shutdown new calls are refused, calls in flight
/// finish within the grace period or are cancelled after it, and the transport shuts down last.
@Suite struct HTTPSessionServiceTests {
    /// Starts `count` calls that each take `seconds` at the Sandbox, and returns once the
    /// Sandbox has all of them.
    private func startSlowCalls(
        _ count: Int, seconds: Int, to sandbox: Sandbox, session: HTTPSession, key: String
    ) async throws -> [Task<Int, any Error>] {
        let calls = (0..<count).map { _ in
            Task { try await HTTPCycle.get(sandbox.url("/counter?key=\(key)&fail=0&hold=\(seconds)"), session: session).statusCode }
        }
        try await waitUntil { sandbox.router.requestCount(forKey: key) == count }
        return calls
    }

    @Test func aGracefulShutdownRefusesNewCallsAndLetsThoseInFlightFinish() async throws {
        let sandbox = try await Sandbox.start()
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        try await testGracefulShutdown { trigger in
            let group = ServiceGroup(services: [HTTPSessionService(session, gracePeriod: .seconds(300))], logger: quietLogger)
            let running = Task { try await group.run() }
            // Calls whose bodies stream: each is in flight until the test has read its body.
            var inFlight: [HTTPStreamedResponse] = []
            for _ in 0..<8 {
                inFlight.append(try await session.stream(HTTPRequest(url: try #require(URL(string: sandbox.url("/bytes/200000"))))))
            }
            #expect(session.runningCalls.count == 8)
            trigger.triggerGracefulShutdown()
            // A call that starts now is refused at once, with the error that says why.
            try await waitUntil { session.isShuttingDown }
            let refused = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect(refused?.code == .sessionShutDown)
            #expect(session.runningCalls.count == 8, "the calls in flight go on")
            for response in inFlight {
                var count = 0
                for try await chunk in response.body { count += chunk.count }
                #expect(count == 200_000, "every call in flight finished whole")
            }
            try await running.value
            #expect(session.runningCalls.isEmpty)
        }
        try await sandbox.shutdown()
    }

    @Test func callsStillRunningAfterTheGracePeriodAreCancelled() async throws {
        let sandbox = try await Sandbox.start()
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        let inFlight = try await startSlowCalls(4, seconds: 120, to: sandbox, session: session, key: "overdue")
        let started = ContinuousClock.now
        try await session.shutdown(gracePeriod: .milliseconds(200))
        #expect(ContinuousClock.now - started < .seconds(60), "the grace period bounds the shutdown")
        for call in inFlight {
            let failure = await httpError { _ = try await call.value }
            #expect(failure?.code == .cancelled)
        }
        try await sandbox.shutdown()
    }

    @Test func aSessionWithNothingInFlightShutsDownAtOnce() async throws {
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        let started = ContinuousClock.now
        try await session.shutdown(gracePeriod: .seconds(300))
        #expect(ContinuousClock.now - started < .seconds(60))
    }
}
