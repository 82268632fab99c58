import Dispatch
import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

@Suite struct CancellationTests {
    @Test func anExplicitCancelNeverCallsTheCompletionHandler() async throws {
        try await withSandbox { sandbox, session in
            let calls = Mutex(0)
            let cycle = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["delay": 5], session: session)
            cycle.start { _, _ in calls.withLock { $0 += 1 } }
            while !cycle.isRunning { await Task.yield() }
            cycle.cancel(explicitly: true)
            while cycle.isRunning { await Task.yield() }
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
                    while !cycle.isRunning { await Task.yield() }
                    cycle.cancel(explicitly: false)
                }
            }
            guard case .cancelled(explicitly: false)? = error else {
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
                    while cycle.response == nil { await Task.yield() }
                    cycle.cancel(explicitly: false)  // the response is in; the completion has not run
                    gate.signal()
                }
            }
            guard case .cancelled(explicitly: false)? = outcome else {
                Issue.record("expected the cancel to win, got \(String(describing: outcome))")
                return
            }
        }
    }

    @Test func cancellingTheAwaitingTaskCancelsTheCycle() async throws {
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["delay": 5], session: session)
            let task = Task { try await cycle.start() }
            while !cycle.isRunning { await Task.yield() }
            task.cancel()
            guard case .cancelled(explicitly: false)? = await httpError({ _ = try await task.value }) else {
                Issue.record("expected a cancellation")
                return
            }
            while cycle.isRunning { await Task.yield() }
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
final class GateProcessor: HTTPProcessor {
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
            cycle.responseProcessors = [gate]
            let task = Task { try await cycle.start() }
            while !gate.entered.withLock({ $0 }) { await Task.yield() }
            cycle.cancel(explicitly: false)
            gate.released.withLock { $0 = true }
            guard case .cancelled(explicitly: false)? = await httpError({ _ = try await task.value }) else {
                Issue.record("expected a cancellation")
                return
            }
        }
    }
}
