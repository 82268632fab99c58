import Dispatch
import JewzLocking

/// The running calls of a session (queued ones included), their number reported to a handler
/// on every change.
///
/// The count changes under a lock and each new value is queued on a serial queue in that same
/// order, so the handler sees every value, exactly, in sequence, without running user code
/// under the lock. The calls are kept under the same lock, which every call takes anyway, so
/// that the session can cancel them by method and path without a second lock per request.
final class NetworkActivity: Sendable {
    private struct State {
        var count = 0
        var handler: (@Sendable (Int) -> Void)?
        /// Each running call, in the slot its ``begin(_:)`` returned. Slots, not a dictionary
        /// by identity: a call takes and frees one without hashing.
        var calls: [HTTPCall?] = []
        var freeSlots: [Int] = []
        /// Who waits for the count to reach zero (``waitUntilIdle()``), by a number of their own.
        var idleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "jewzruxin.session.activity")

    var handler: (@Sendable (Int) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// The running calls, in no particular order.
    var calls: [HTTPCall] {
        state.withLock { $0.calls }.compactMap { $0 }
    }

    /// Counts `call` as running, and returns its slot for ``end(_:)``.
    func begin(_ call: HTTPCall) -> Int {
        change(by: 1) { state in
            if let slot = state.freeSlots.popLast() {
                state.calls[slot] = call
                return slot
            }
            state.calls.append(call)
            return state.calls.count - 1
        }
    }

    /// Counts the call that `begin(_:)` gave `slot` as ended, and wakes who waits for none to
    /// run when it was the last.
    func end(_ slot: Int) {
        let idle = change(by: -1) { state -> [CheckedContinuation<Void, Never>]? in
            state.calls[slot] = nil
            state.freeSlots.append(slot)
            guard state.count == 0, !state.idleWaiters.isEmpty else { return nil }
            defer { state.idleWaiters = [:] }
            return Array(state.idleWaiters.values)
        }
        idle?.forEach { $0.resume() }
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

    /// Returns once no call is running, at once when none is; or when the task is cancelled.
    func waitUntilIdle() async {
        let number = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // The cancel flag is read under the lock the handler takes: a cancel either
                // finds the waiter here or is seen before it is put here.
                let waits = state.withLock { state in
                    guard state.count > 0, !Task.isCancelled else { return false }
                    state.idleWaiters[number] = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.idleWaiters.removeValue(forKey: number) }?.resume()
        }
    }
}
