import Dispatch
import JewzLocking

/// The running cycles of a session (queued ones included), their number reported to a handler
/// on every change.
///
/// The count changes under a lock and each new value is queued on a serial queue in that same
/// order, so the handler sees every value, exactly, in sequence, without running user code
/// under the lock. The cycles are kept under the same lock, which every run takes anyway, so
/// that the session can cancel them by method and path without a second lock per request.
final class NetworkActivity: Sendable {
    private struct State {
        var count = 0
        var handler: (@Sendable (Int) -> Void)?
        /// The cycle of each running run, in the slot its ``begin(_:)`` returned; a cycle
        /// appears once per run (a restart's run may begin before the one it replaces ends).
        /// Slots, not a dictionary by identity: a run takes and frees one without hashing.
        var runs: [HTTPCycle?] = []
        var freeSlots: [Int] = []
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "jewzruxin.session.activity")

    var handler: (@Sendable (Int) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// The running cycles, each once.
    var cycles: [HTTPCycle] {
        let runs = state.withLock { $0.runs }
        var seen = Set<ObjectIdentifier>()
        return runs.compactMap { $0 }.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// Counts a run of `cycle` (`nil` for a send without one) as running, and returns its
    /// slot for ``end(_:)``.
    func begin(_ cycle: HTTPCycle?) -> Int {
        change(by: 1) { state in
            if let slot = state.freeSlots.popLast() {
                state.runs[slot] = cycle
                return slot
            }
            state.runs.append(cycle)
            return state.runs.count - 1
        }
    }

    /// Counts the run that `begin(_:)` gave `slot` as ended.
    func end(_ slot: Int) {
        change(by: -1) { state in
            state.runs[slot] = nil
            state.freeSlots.append(slot)
        }
    }

    private func change<T>(by delta: Int, _ update: (inout State) -> T) -> T {
        state.withLock { state in
            state.count += delta
            let result = update(&state)
            if let handler = state.handler {
                let count = state.count
                queue.async { handler(count) }
            }
            return result
        }
    }
}
