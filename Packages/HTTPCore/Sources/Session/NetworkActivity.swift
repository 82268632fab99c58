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
        /// Each running cycle with its number of runs (a restart's run may begin before the
        /// run it replaces has ended).
        var cycles: [ObjectIdentifier: (cycle: HTTPCycle, runs: Int)] = [:]
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "jewzruxin.session.activity")

    var handler: (@Sendable (Int) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// The cycles with a run in progress.
    var cycles: [HTTPCycle] {
        state.withLock { $0.cycles.values.map(\.cycle) }
    }

    func begin(_ cycle: HTTPCycle) {
        change(by: 1) { cycles in
            cycles[ObjectIdentifier(cycle), default: (cycle, 0)].runs += 1
        }
    }

    func end(_ cycle: HTTPCycle) {
        change(by: -1) { cycles in
            let key = ObjectIdentifier(cycle)
            guard let entry = cycles[key] else { return }
            if entry.runs > 1 { cycles[key]?.runs -= 1 } else { cycles[key] = nil }
        }
    }

    private func change(by delta: Int, _ update: (inout [ObjectIdentifier: (cycle: HTTPCycle, runs: Int)]) -> Void) {
        state.withLock { state in
            state.count += delta
            update(&state.cycles)
            guard let handler = state.handler else { return }
            let count = state.count
            queue.async { handler(count) }
        }
    }
}
