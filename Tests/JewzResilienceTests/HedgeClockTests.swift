@testable import JewzResilience
import Synchronization
import Testing

/// The hedging stage's one timer: each wait returns at its own deadline, whatever the deadlines
/// of the waits before it, and at once when its task is cancelled. The long waits are an hour,
/// far past the suite's time limit, so that a wait held until one fails the test rather than
/// passing late; what is asserted is order, never a duration a stalled machine could stretch.
@Suite(.timeLimit(.minutes(1))) struct HedgeClockTests {
    @Test func aWaitDueBeforeTheNextWakeUpGetsOneOfItsOwn() async throws {
        let clock = HedgeClock()
        let longReturned = Atomic(false)
        let long = Task {
            await clock.wait(until: .now + .seconds(3600))
            longReturned.store(true, ordering: .relaxed)
        }
        // Registered after the hour's wait: the clock then sleeps until that one's deadline.
        try await Task.sleep(for: .milliseconds(20))
        await clock.wait(until: .now + .milliseconds(50))
        let longReturnedFirst = longReturned.load(ordering: .relaxed)
        #expect(!longReturnedFirst, "the short wait returned on its own, the hour's still waits")
        long.cancel()
        await long.value
        let returnedOnCancel = longReturned.load(ordering: .relaxed)
        #expect(returnedOnCancel, "a cancelled wait returns (within the time limit, not in an hour)")
    }

    @Test func waitsReturnNoEarlierThanTheirDeadlines() async throws {
        let clock = HedgeClock()
        let started = ContinuousClock.now
        let delays: [Duration] = [.milliseconds(120), .milliseconds(30), .milliseconds(80), .milliseconds(30)]
        let ended = await withTaskGroup(of: (Duration, Duration).self) { group in
            for delay in delays {
                group.addTask {
                    await clock.wait(until: started + delay)
                    return (delay, ContinuousClock.now - started)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(ended.count == delays.count)
        for (delay, elapsed) in ended {
            #expect(elapsed >= delay, "\(delay) returned after \(elapsed)")
        }
    }

    @Test func aWaitCancelledBeforeItBeganReturnsAtOnce() async {
        let clock = HedgeClock()
        let deadline = ContinuousClock.now + .seconds(3600)
        let task = Task { await clock.wait(until: deadline) }
        task.cancel()
        await task.value
        #expect(ContinuousClock.now < deadline, "returned on its cancellation, not at its deadline")
    }
}
