import Dispatch
import Foundation
import JewzHTTPCore
import JewzMocking
import JewzLocking
import JewzSandbox
import JewzTestSupport
import struct Synchronization.Atomic
import Testing

@Suite struct CancellationTests {
    @Test func anExplicitCancelNeverCallsTheCompletionHandler() async throws {
        try await withSandbox { sandbox, session in
            let calls = Mutex(0)
            let cycle = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["delay": 5], session: session)
            cycle.start { _, _ in calls.withLock { $0 += 1 } }
            try await waitUntil { cycle.isRunning }
            cycle.cancel(explicitly: true)
            try await waitUntil { !cycle.isRunning }
            // Anything already queued on the completion queue runs before this barrier.
            await withCheckedContinuation { continuation in session.completionQueue.async { continuation.resume() } }
            #expect(calls.withLock { $0 } == 0)
        }
    }

    @Test func anImplicitCancelCompletesWithCancelledNotANetworkError() async throws {
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["delay": 5], session: session)
            let error: HTTPError? = await withCheckedContinuation { continuation in
                cycle.start { _, error in continuation.resume(returning: error) }
                Task {
                    try await waitUntil { cycle.isRunning }
                    cycle.cancel(explicitly: false)
                }
            }
            guard let error = error, error.code == .cancelled, !error.isExplicitCancellation else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }

    @Test func aCancelIssuedBeforeTheCompletionRunsWins() async throws {
        try await withSandbox { sandbox, session in
            // Hold the completion queue so the finished run's completion waits behind it.
            let gate = DispatchSemaphore(value: 0)
            session.completionQueue.async { gate.wait() }
            let cycle = try HTTPCycle(sandbox.url("/hello/"), method: .get, session: session)
            let outcome: HTTPError? = await withCheckedContinuation { continuation in
                cycle.start { _, error in continuation.resume(returning: error) }
                Task {
                    try await waitUntil { cycle.response != nil }
                    cycle.cancel(explicitly: false)  // the response is in; the completion has not run
                    gate.signal()
                }
            }
            guard let error = outcome, error.code == .cancelled, !error.isExplicitCancellation else {
                Issue.record("expected the cancel to win, got \(String(describing: outcome))")
                return
            }
        }
    }

    @Test func cancellingTheAwaitingTaskCancelsTheCycle() async throws {
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["delay": 5], session: session)
            let task = Task { try await cycle.start() }
            try await waitUntil { cycle.isRunning }
            task.cancel()
            guard let error = await httpError({ _ = try await task.value }), error.code == .cancelled, !error.isExplicitCancellation else {
                Issue.record("expected a cancellation")
                return
            }
            try await waitUntil { !cycle.isRunning }
        }
    }

    @Test func cancellingTheTaskOfAOneCallFormCancelsItsRequest() async throws {
        try await withSandbox { sandbox, session in
            let running = AsyncStream<Void>.makeStream()
            try session.update { $0.activityHandler = { count in if count == 1 { running.continuation.finish() } } }
            // The request runs in `task` itself, which nothing but its own cancellation can stop.
            let task = Task { try await HTTPCycle.get(sandbox.url("/echo/"), parameters: ["delay": 300], session: session) }
            for await _ in running.stream {}
            let cancelled = ContinuousClock.now
            task.cancel()
            guard let error = await httpError({ _ = try await task.value }), error.code == .cancelled, !error.isExplicitCancellation else {
                Issue.record("expected a cancellation")
                return
            }
            // The server would answer after 300 seconds; the margin is for a starved machine.
            #expect(ContinuousClock.now - cancelled < .seconds(150))
        }
    }

    @Test func aOneCallFormInACancelledTaskSendsNothing() async throws {
        // The stages between the run's start and the transport ask only the cycle; the task is
        // asked at the transport's door, so a cancelled caller's request never goes out.
        let mock = MockTransport()
        try mock.fakeGET("/items", json: ["id": 1])
        let session = HTTPSession(configuration: .init { $0.customTransport = mock; $0.logger = quietLogger })
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await HTTPCycle.get("https://api.example.com/items", session: session)
        }
        guard let error = await httpError({ _ = try await task.value }), error.code == .cancelled, !error.isExplicitCancellation else {
            Issue.record("expected a cancellation")
            return
        }
        #expect(mock.requests.isEmpty)
        try await session.shutdown()
    }

    @Test func aMonitorsCancelStopsAOneCallFormOnTheWire() async throws {
        // A monitor is handed the call of a one-call form: its cancel, once the server holds
        // the request, must stop the exchange at once, not when the response arrives.
        final class Canceller: HTTPEventMonitor {
            let sandbox: Sandbox
            init(_ sandbox: Sandbox) { self.sandbox = sandbox }
            func call(_ call: HTTPCall, didEmit event: HTTPEvent) {
                guard case .requestSent = event else { return }
                Task { [sandbox] in
                    try await waitUntil { sandbox.router.requestCount(forKey: "held") > 0 }
                    call.cancel(explicitly: true)
                }
            }
        }
        try await withSandbox { sandbox, session in
            try session.update { $0.eventMonitors = [Canceller(sandbox)] }
            let started = ContinuousClock.now
            let error = await httpError {
                _ = try await HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "held", "fail": 0, "hold": 300], session: session)
            }
            guard let error = error, error.code == .cancelled, error.isExplicitCancellation else {
                Issue.record("expected an explicit cancellation, got \(String(describing: error))")
                return
            }
            #expect(ContinuousClock.now - started < .seconds(150))  // the server would answer after 300
        }
    }

    @Test func aProgressHandlersCancelStopsAOneCallDownload() async throws {
        try await withSandbox { sandbox, session in
            let written = Atomic<Int64>(0)
            let error = await httpError {
                _ = try await HTTPCycle.download(
                    sandbox.url("/download/\(1 << 30)"),
                    didWriteData: { _, total, _ in
                        written.store(total, ordering: .relaxed)
                        if total > 1 << 20 { session.cancelAllCalls() }
                    },
                    session: session, downloadFile: { _, _ in Issue.record("a cancelled download has no file") })
            }
            guard let error = error, error.code == .cancelled, !error.isExplicitCancellation else {
                Issue.record("expected a cancellation, got \(String(describing: error))")
                return
            }
            // Stopped soon after the cancel, not after the whole gibibyte.
            #expect(written.load(ordering: .relaxed) < 256 << 20)
        }
    }

    @Test func restartSendsAgainAndReplacesTheResponse() async throws {
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "restart", "fail": 0], session: session)
            try await cycle.start()
            #expect(cycle.response?.text == "attempt 1 succeeds")
            let texts = Mutex<[String]>([])
            let finished = AsyncStream<Void>.makeStream()
            cycle.start { cycle, _ in
                texts.withLock { $0.append(cycle.response?.text ?? "") }
                finished.continuation.yield()
            }
            cycle.restart()  // supersedes the run just started: one completion, for the new run
            for await _ in finished.stream { break }
            await withCheckedContinuation { continuation in session.completionQueue.async { continuation.resume() } }
            #expect(texts.withLock { $0.count } == 1)
            let last = cycle.response?.text ?? ""
            #expect(last == "attempt 3 succeeds" || last == "attempt 2 succeeds")
            #expect(texts.withLock { $0 } == [last])
        }
    }
}

/// A response processor that holds the cycle until the test lets it go.
final class GateProcessor: HTTPResponseProcessor {
    let entered = Mutex(false)
    let released = Mutex(false)

    func process(_ response: inout HTTPResponse) throws {
        entered.withLock { $0 = true }
        while !released.withLock({ $0 }) { sched_yield() }
        response.object = "processed"
    }
}

@Suite struct CancellationDuringProcessingTests {
    @Test func cancellingWhileProcessorsRunGivesCancelled() async throws {
        try await withSandbox { sandbox, session in
            let gate = GateProcessor()
            let cycle = try HTTPCycle(sandbox.url("/hello/"), method: .get, session: session)
            cycle.options.responseProcessors = [gate]
            let task = Task { try await cycle.start() }
            try await waitUntil { gate.entered.withLock { $0 } }
            cycle.cancel(explicitly: false)
            gate.released.withLock { $0 = true }
            guard let error = await httpError({ _ = try await task.value }), error.code == .cancelled, !error.isExplicitCancellation else {
                Issue.record("expected a cancellation")
                return
            }
        }
    }
}
