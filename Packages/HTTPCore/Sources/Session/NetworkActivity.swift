import Dispatch
import Synchronization

/// The number of running cycles of a session, reported to a handler on every change.
///
/// The count changes under a lock and each new value is queued on a serial queue in that same
/// order, so the handler sees every value, exactly, in sequence, without running user code
/// under the lock.
final class NetworkActivity: Sendable {
    private struct State {
        var count = 0
        var handler: (@Sendable (Int) -> Void)?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "jewzruxin.session.activity")

    var handler: (@Sendable (Int) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    func begin() { change(by: 1) }
    func end() { change(by: -1) }

    private func change(by delta: Int) {
        state.withLock { state in
            state.count += delta
            guard let handler = state.handler else { return }
            let count = state.count
            queue.async { handler(count) }
        }
    }
}
