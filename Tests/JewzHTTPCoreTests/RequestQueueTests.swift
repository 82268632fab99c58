import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

@Suite struct RequestQueueTests {
    /// Waits until the session holds `count` cycles back.
    private func waitForPending(_ session: HTTPSession, _ count: Int) async {
        while session.pendingCycles.count != count { await Task.yield() }
    }

    @Test func atMostTheMaximumIsOnTheWire() async throws {
        try await withSandbox { sandbox, session in
            session.maximumActiveRequests = 2
            let clock = ContinuousClock()
            let started = clock.now
            let highestPending = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        _ = try await HTTPCycle.get(sandbox.url("/echo/"), parameters: ["delay": 0.2], session: session)
                        return 0
                    }
                }
                group.addTask {
                    var highest = 0
                    while highest < 4, clock.now - started < .seconds(5) {
                        highest = max(highest, session.pendingCycles.count)
                        await Task.yield()
                    }
                    return highest
                }
                return try await group.reduce(0, max)
            }
            #expect(highestPending == 4)
            #expect(clock.now - started >= .milliseconds(580))  // three rounds of two
        }
    }

    @Test func pausedRequestsStayOffTheWireUntilResumed() async throws {
        try await withSandbox { sandbox, session in
            session.pause()
            #expect(session.isPaused)
            let done = AsyncStream<Void>.makeStream()
            let finished = Mutex(0)
            for _ in 0..<3 {
                try HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "paused", "fail": 0], session: session) { _, _ in
                    if finished.withLock({ count in
                        count += 1
                        return count == 3
                    }) { done.continuation.finish() }
                }
            }
            await waitForPending(session, 3)
            let probe = try await HTTPCycle.get(  // a probe from another session sees nothing arrived
                sandbox.url("/counter"), parameters: ["key": "paused", "fail": 0], session: HTTPSession(processorRegistry: ProcessorRegistry()))
            #expect(probe.response?.text == "attempt 1 succeeds")
            session.resume()
            for await _ in done.stream {}
            #expect(session.pendingCycles.isEmpty)
        }
    }

    @Test func cancellingAPendingCycleNeverTouchesTheNetwork() async throws {
        try await withSandbox { sandbox, session in
            session.maximumActiveRequests = 1
            let blocker = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["delay": 0.3], session: session)
            let waiting = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "never", "fail": 0], session: session)
            async let first: Void = { _ = try await blocker.start() }()
            async let second = httpError { try await waiting.start() }
            await waitForPending(session, 1)
            waiting.cancel(explicitly: true)
            guard case .cancelled(explicitly: true)? = await second else {
                Issue.record("expected an explicit cancellation")
                return
            }
            try await first
            let probe = try await HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "never", "fail": 0], session: session)
            #expect(probe.response?.text == "attempt 1 succeeds")
        }
    }

    @Test func priorityDecidesTheOrderAndCanChangeWhilePending() async throws {
        try await withSandbox { sandbox, session in
            session.maximumActiveRequests = 1
            session.pause()
            let order = Mutex<[String]>([])
            let done = AsyncStream<Void>.makeStream()
            var cycles: [String: HTTPCycle] = [:]
            for (name, priority) in [("low", RequestPriority.low), ("normal", .normal), ("high", .high)] {
                let cycle = try HTTPCycle(sandbox.url("/hello/"), method: .get, session: session)
                cycle.priority = priority
                cycles[name] = cycle
                cycle.start { _, _ in
                    if order.withLock({ order in
                        order.append(name)
                        return order.count == 3
                    }) { done.continuation.finish() }
                }
                await waitForPending(session, cycles.count)
            }
            cycles["low"]?.priority = RequestPriority(rawValue: 500)
            session.resume()
            for await _ in done.stream {}
            #expect(order.withLock { $0 } == ["low", "high", "normal"])
        }
    }
}
