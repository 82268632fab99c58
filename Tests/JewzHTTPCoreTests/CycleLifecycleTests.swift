@testable import JewzHTTPCore
import Testing

/// The cycle's lifecycle as a value: every transition without a server.
@Suite struct CycleLifecycleTests {
    @Test func aRunBeginsAndEndsAndItsCompletionIsDeliveredOnce() {
        var lifecycle = CycleLifecycle()
        #expect(!lifecycle.isBusy)
        let (generation, previous) = lifecycle.begin(completion: { _, _ in })
        #expect(generation == 1)
        #expect(previous == nil)
        #expect(lifecycle.isBusy)
        let ended = lifecycle.end(generation)
        #expect(ended)
        #expect(lifecycle.isBusy, "busy until the completion handler has run")
        let delivered = lifecycle.deliverCompletion(of: generation, failure: nil)
        #expect(delivered == .call(nil), "called, without an error")
        #expect(!lifecycle.isBusy)
    }

    @Test func aRestartDropsTheRunItReplaces() {
        var lifecycle = CycleLifecycle()
        let first = lifecycle.begin(completion: nil).generation
        let cancelledEarly = lifecycle.adopt(Task { throw CancellationError() }, of: first)
        #expect(!cancelledEarly)
        let (second, previous) = lifecycle.begin(completion: nil)
        #expect(second == first + 1)
        #expect(previous != nil, "the caller cancels the replaced run's task")
        let replacedEnd = lifecycle.end(first)
        #expect(!replacedEnd, "the replaced run's end changes nothing")
        #expect(lifecycle.isBusy)
        let currentEnd = lifecycle.end(second)
        #expect(currentEnd)
        #expect(!lifecycle.isBusy)
    }

    @Test func anExplicitCancelSilencesTheCompletionAndAnImplicitOneReportsIt() {
        var lifecycle = CycleLifecycle()
        let explicit = lifecycle.begin(completion: { _, _ in }).generation
        let stopping = lifecycle.cancel(explicitly: true)
        #expect(stopping != nil)
        #expect(lifecycle.cancellation(of: explicit)?.isExplicitCancellation == true)
        _ = lifecycle.end(explicit)
        let silenced = lifecycle.deliverCompletion(of: explicit, failure: .timedOut)
        #expect(silenced == .skip, "not called")

        let implicit = lifecycle.begin(completion: { _, _ in }).generation
        #expect(lifecycle.cancellation(of: implicit) == nil, "a new run starts uncancelled")
        _ = lifecycle.cancel(explicitly: false)
        _ = lifecycle.end(implicit)
        let reported = lifecycle.deliverCompletion(of: implicit, failure: nil)
        #expect(reported == .call(.cancelled(explicitly: false)))
        #expect(!lifecycle.isBusy)
    }

    @Test func nothingIsCancelledWhenNothingRuns() {
        var lifecycle = CycleLifecycle()
        let idle = lifecycle.cancel(explicitly: true)
        #expect(idle == nil)
        let generation = lifecycle.begin(completion: nil).generation
        _ = lifecycle.end(generation)
        let finished = lifecycle.cancel(explicitly: true)
        #expect(finished == nil)
    }

    @Test func aCancelBeforeTheTaskOrTheExchangeIsKnownIsPassedOn() {
        var lifecycle = CycleLifecycle()
        let generation = lifecycle.begin(completion: nil).generation
        _ = lifecycle.cancel(explicitly: false)
        let cancelsTask = lifecycle.adopt(Task { throw CancellationError() }, of: generation)
        #expect(cancelsTask, "the caller cancels the task it made")
        let stopsExchange = lifecycle.attach(NoExchange())
        #expect(stopsExchange, "the caller stops the exchange at once")
    }
}

/// An exchange that nothing needs to stop.
final class NoExchange: HTTPExchangeCancelling {
    func cancel() {}
}

extension CycleLifecycleTests {
    @Test func aRestartedRunsCompletionIsNotDeliveredAndACancelWhilePendingWins() {
        var lifecycle = CycleLifecycle()
        let first = lifecycle.begin(completion: { _, _ in }).generation
        _ = lifecycle.end(first)
        let second = lifecycle.begin(completion: { _, _ in }).generation
        #expect(lifecycle.deliverCompletion(of: first, failure: nil) == .skip, "the restart's run owns the completion now")
        _ = lifecycle.end(second)
        #expect(lifecycle.cancel(explicitly: false) != nil, "a completion still pending can be cancelled")
        #expect(lifecycle.deliverCompletion(of: second, failure: nil) == .call(.cancelled(explicitly: false)))
        #expect(lifecycle.deliverCompletion(of: second, failure: nil) == .skip, "delivered once")
    }
}
