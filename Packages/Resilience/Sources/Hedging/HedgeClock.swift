import JewzLocking

/// The delays of one ``Hedging`` stage's races, kept by one timer: a race waits for its delay as
/// a continuation the clock resumes, not as a `Task.sleep` of its own, whose timer Swift's
/// executor keeps until its deadline even after the race ended — thousands of dead timers a
/// second at a service's rate, each costing a wake-up.
///
/// The clock sleeps until the earliest deadline it knows of, resumes the waits that are due,
/// and sleeps again until the next; a wait due before the next wake-up gets one of its own.
/// With no wait left it stops, and the next wait starts it again.
final class HedgeClock: Sendable {
    private enum Slot {
        case waiting(ContinuousClock.Instant, CheckedContinuation<Void, Never>)
        /// Cancelled before it began waiting: it returns at once when it does.
        case cancelled
    }

    private struct State {
        var slots: [UInt64: Slot] = [:]
        var nextNumber: UInt64 = 0
        /// The instants a wake-up is scheduled for.
        var wakeUps: [ContinuousClock.Instant] = []
    }

    private let state = Mutex(State())

    /// Returns once `deadline` has passed, or at once when the task is cancelled.
    func wait(until deadline: ContinuousClock.Instant) async {
        let number = state.withLock { state in
            defer { state.nextNumber += 1 }
            return state.nextNumber
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let wakeUp: Bool? = state.withLock { state in
                    if case .cancelled = state.slots[number] {
                        state.slots[number] = nil
                        return nil
                    }
                    state.slots[number] = .waiting(deadline, continuation)
                    guard !state.wakeUps.contains(where: { $0 <= deadline }) else { return false }
                    state.wakeUps.append(deadline)
                    return true
                }
                switch wakeUp {
                case nil: continuation.resume()
                case true?: Task { await self.wake(at: deadline) }
                case false?: break
                }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
                guard case .waiting(_, let continuation) = state.slots[number] else {
                    state.slots[number] = .cancelled
                    return nil
                }
                state.slots[number] = nil
                return continuation
            }
            continuation?.resume()
        }
    }

    /// Sleeps until `instant`, resumes the waits due then, and goes on to the next deadline
    /// unless another wake-up comes first.
    private func wake(at instant: ContinuousClock.Instant) async {
        var next: ContinuousClock.Instant? = instant
        while let instant = next {
            // Never cancelled: nothing holds this task but the clock.
            try? await Task.sleep(until: instant, clock: .continuous)
            let due: [CheckedContinuation<Void, Never>]
            (due, next) = state.withLock { state in
                let now = ContinuousClock.now
                state.wakeUps.removeAll { $0 == instant }
                var due: [CheckedContinuation<Void, Never>] = []
                var earliest: ContinuousClock.Instant?
                for (number, slot) in state.slots {
                    guard case .waiting(let deadline, let continuation) = slot else { continue }
                    if deadline <= now {
                        due.append(continuation)
                        state.slots[number] = nil
                    } else {
                        earliest = min(earliest ?? deadline, deadline)
                    }
                }
                guard let earliest, !state.wakeUps.contains(where: { $0 <= earliest }) else { return (due, nil) }
                state.wakeUps.append(earliest)
                return (due, earliest)
            }
            for continuation in due { continuation.resume() }
        }
    }
}
