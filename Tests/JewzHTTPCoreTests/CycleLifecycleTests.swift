import Foundation
@testable import JewzHTTPCore
import Testing

/// The cycle's lifecycle as a value: every transition without a server. Its calls are made and
/// never run.
@Suite struct CycleLifecycleTests {
    private let session = HTTPSession(configuration: .init { $0.customTransport = NoTransport() })

    private func call() -> HTTPCall {
        HTTPCall(session: session, settings: RunSettings(request: HTTPRequest(url: URL(filePath: "/")), options: .init()), vettedURL: nil)
    }

    @Test func aRunBeginsAndEndsAndItsCompletionIsDeliveredOnce() {
        var lifecycle = CycleLifecycle()
        #expect(!lifecycle.isBusy)
        let started = call()
        let (generation, replaced) = lifecycle.begin(started, completion: { _, _ in })
        #expect(generation == 1)
        #expect(replaced == nil)
        #expect(lifecycle.isBusy)
        #expect(lifecycle.call === started)
        let ended = lifecycle.end(generation)
        #expect(ended)
        #expect(lifecycle.call == nil)
        #expect(lifecycle.isBusy, "busy until the completion handler has run")
        let delivered = lifecycle.deliverCompletion(of: generation, failure: nil)
        #expect(delivered == .call(nil), "called, without an error")
        #expect(!lifecycle.isBusy)
    }

    @Test func aRestartDropsTheRunItReplaces() {
        var lifecycle = CycleLifecycle()
        let firstCall = call()
        let first = lifecycle.begin(firstCall, completion: nil).generation
        let (second, replaced) = lifecycle.begin(call(), completion: nil)
        #expect(second == first + 1)
        #expect(replaced === firstCall, "the caller cancels the replaced call")
        let replacedEnd = lifecycle.end(first)
        #expect(!replacedEnd, "the replaced run's end changes nothing")
        #expect(lifecycle.isBusy)
        let currentEnd = lifecycle.end(second)
        #expect(currentEnd)
        #expect(!lifecycle.isBusy)
    }

    @Test func anExplicitCancelSilencesTheCompletionAndAnImplicitOneReportsIt() {
        var lifecycle = CycleLifecycle()
        let running = call()
        let explicit = lifecycle.begin(running, completion: { _, _ in }).generation
        let stopping = lifecycle.cancel(explicitly: true)
        #expect(stopping === running, "the caller stops the running call")
        _ = lifecycle.end(explicit)
        let silenced = lifecycle.deliverCompletion(of: explicit, failure: .timedOut)
        #expect(silenced == .skip, "not called")

        let implicit = lifecycle.begin(call(), completion: { _, _ in }).generation
        _ = lifecycle.end(implicit)
        let uncancelled = lifecycle.deliverCompletion(of: implicit, failure: nil)
        #expect(uncancelled == .call(nil), "a new run starts uncancelled")

        let cancelled = lifecycle.begin(call(), completion: { _, _ in }).generation
        _ = lifecycle.cancel(explicitly: false)
        _ = lifecycle.end(cancelled)
        let reported = lifecycle.deliverCompletion(of: cancelled, failure: nil)
        #expect(reported == .call(.cancelled(explicitly: false)))
        #expect(!lifecycle.isBusy)
    }

    @Test func nothingIsCancelledWhenNothingRuns() {
        var lifecycle = CycleLifecycle()
        let idle = lifecycle.cancel(explicitly: true)
        #expect(idle == nil)
        let generation = lifecycle.begin(call(), completion: nil).generation
        _ = lifecycle.end(generation)
        let finished = lifecycle.cancel(explicitly: true)
        #expect(finished == nil)
    }

    @Test func aRestartedRunsCompletionIsNotDeliveredAndACancelWhilePendingWins() {
        var lifecycle = CycleLifecycle()
        let first = lifecycle.begin(call(), completion: { _, _ in }).generation
        _ = lifecycle.end(first)
        let second = lifecycle.begin(call(), completion: { _, _ in }).generation
        #expect(lifecycle.deliverCompletion(of: first, failure: nil) == .skip, "the restart's run owns the completion now")
        _ = lifecycle.end(second)
        #expect(lifecycle.cancel(explicitly: false) == nil, "nothing left to stop, but the cancel is recorded")
        #expect(lifecycle.deliverCompletion(of: second, failure: nil) == .call(.cancelled(explicitly: false)))
        #expect(lifecycle.deliverCompletion(of: second, failure: nil) == .skip, "delivered once")
    }
}

/// A transport for calls that never run.
struct NoTransport: HTTPTransport {
    nonisolated(nonsending) func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?, to receiver: inout some HTTPResponseReceiver
    ) async throws {
        throw HTTPError.connectionFailed(reason: "no transport")
    }

    func shutdown() async throws {}
}
