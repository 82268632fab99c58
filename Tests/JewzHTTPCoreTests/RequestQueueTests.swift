import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

@Suite struct RequestQueueTests {
    /// Waits until the session holds `count` cycles back.
    private func waitForPending(_ session: HTTPSession, _ count: Int) async throws {
        try await waitUntil { session.pendingCalls.count == count }
    }

    @Test func atMostTheMaximumIsOnTheWire() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.maximumActiveRequests = 2 }
            // Queue all six first, so the count below does not depend on how fast tasks start.
            session.pause()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        _ = try await HTTPCycle.get(sandbox.url("/echo/"), parameters: ["delay": 0.2], session: session)
                    }
                }
                try await waitForPending(session, 6)
                let clock = ContinuousClock()
                let resumed = clock.now
                session.resume()
                #expect(session.pendingCalls.count == 4)  // two admitted, the rest wait
                try await group.waitForAll()
                #expect(clock.now - resumed >= .milliseconds(580))  // three rounds of two
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func cancellingAWaitingOneCallFormKeepsItOffTheWire() async throws {
        try await withSandbox { sandbox, session in
            session.pause()
            let parameters: QueryParameters = ["key": "withdrawn", "fail": 0]
            let request = Task { try await HTTPCycle.get(sandbox.url("/counter"), parameters: parameters, session: session) }
            try await waitForPending(session, 1)
            // The cycle runs in `request`, which is not cancelled: the cancel alone must stop it.
            session.pendingCalls.first?.cancel(explicitly: true)
            guard let error = await httpError({ _ = try await request.value }), error.code == .cancelled, error.isExplicitCancellation else {
                Issue.record("expected an explicit cancellation")
                return
            }
            #expect(session.pendingCalls.isEmpty)
            session.resume()
            let probe = try await HTTPCycle.get(sandbox.url("/counter"), parameters: parameters, session: session)
            #expect(probe.text == "attempt 1 succeeds")  // the cancelled one never arrived
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
            try await waitForPending(session, 3)
            let probe = try await HTTPCycle.get(  // a probe from another session sees nothing arrived
                sandbox.url("/counter"), parameters: ["key": "paused", "fail": 0], session: HTTPSession(configuration: .init { $0.processorRegistry = ProcessorRegistry() }))
            #expect(probe.text == "attempt 1 succeeds")
            session.resume()
            for await _ in done.stream {}
            #expect(session.pendingCalls.isEmpty)
        }
    }

    @Test func cancellingAPendingCycleNeverTouchesTheNetwork() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.maximumActiveRequests = 1 }
            // The blocker holds the only place until it is cancelled, and takes it before the
            // other cycle asks: queued while paused, admitted by the resume.
            let blocker = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["delay": 30], session: session)
            let waiting = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "never", "fail": 0], session: session)
            session.pause()
            async let first = httpError { try await blocker.start() }
            try await waitForPending(session, 1)
            session.resume()
            async let second = httpError { try await waiting.start() }
            try await waitForPending(session, 1)
            #expect(session.pendingCalls.first?.request.url == waiting.request.url)
            waiting.cancel(explicitly: true)
            guard let error = await second, error.code == .cancelled, error.isExplicitCancellation else {
                Issue.record("expected an explicit cancellation")
                return
            }
            blocker.cancel(explicitly: true)
            _ = await first
            let probe = try await HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "never", "fail": 0], session: session)
            #expect(probe.text == "attempt 1 succeeds")
        }
    }

    @Test func priorityDecidesTheOrderAndCanChangeWhilePending() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.maximumActiveRequests = 1 }
            session.pause()
            let order = Mutex<[String]>([])
            let done = AsyncStream<Void>.makeStream()
            var cycles: [String: HTTPCycle] = [:]
            for (name, priority) in [("low", RequestPriority.low), ("normal", .normal), ("high", .high)] {
                let cycle = try HTTPCycle(sandbox.url("/hello/"), method: .get, session: session)
                cycle.options.priority = priority
                cycles[name] = cycle
                cycle.start { _, _ in
                    if order.withLock({ order in
                        order.append(name)
                        return order.count == 3
                    }) { done.continuation.finish() }
                }
                try await waitForPending(session, cycles.count)
            }
            cycles["low"]?.options.priority = RequestPriority(rawValue: 500)
            session.resume()
            for await _ in done.stream {}
            #expect(order.withLock { $0 } == ["low", "high", "normal"])
        }
    }

    @Test func aWaitingCallRisesWhenItsTaskIsEscalated() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.maximumActiveRequests = 1 }
            session.pause()
            let order = Mutex<[String]>([])
            var tasks: [String: Task<Void, any Error>] = [:]
            for name in ["first", "second", "escalated"] {
                let request = HTTPRequest(url: try #require(URL(string: sandbox.url("/hello/"))))
                tasks[name] = Task(priority: .low) { @Sendable in
                    _ = try await session.send(request)
                    order.withLock { $0.append(name) }
                }
                try await waitForPending(session, tasks.count)
            }
            #expect(session.pendingCalls.map(\.priority) == [.normal, .normal, .normal])
            tasks["escalated"]?.escalatePriority(to: .high)
            try await waitUntil { session.pendingCalls.first?.priority == .high }
            session.resume()
            for task in tasks.values { try await task.value }
            #expect(order.withLock { $0 } == ["escalated", "first", "second"])
        }
    }
}
