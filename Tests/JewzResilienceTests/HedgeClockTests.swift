@testable import JewzResilience
import Testing

/// The hedging stage's one timer: each wait returns at its own deadline, whatever the deadlines
/// of the waits before it, and at once when its task is cancelled.
@Suite struct HedgeClockTests {
    @Test func aWaitDueBeforeTheNextWakeUpGetsOneOfItsOwn() async throws {
        let clock = HedgeClock()
        let started = ContinuousClock.now
        let long = Task { await clock.wait(until: started + .seconds(60)) }
        // Registered after the 60 s wait: the clock then sleeps until that one's deadline.
        try await Task.sleep(for: .milliseconds(20))
        await clock.wait(until: .now + .milliseconds(50))
        #expect(ContinuousClock.now - started < .seconds(30), "not held until the earlier wait's minute")
        long.cancel()
        await long.value
        #expect(ContinuousClock.now - started < .seconds(30), "a cancelled wait returns at once")
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
        let started = ContinuousClock.now
        let task = Task { await clock.wait(until: .now + .seconds(60)) }
        task.cancel()
        await task.value
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
