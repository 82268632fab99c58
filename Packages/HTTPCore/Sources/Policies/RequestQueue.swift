import JewzLocking

/// Admits a session's requests to the network: at most `maximumActive` at once, none while
/// paused, waiting ones by priority. A call holds a place only while its request is on the
/// wire (not during retry backoff or processing); a cancelled waiter leaves without sending.
final class RequestQueue: Sendable {
    private struct Waiter {
        let id: UInt64
        /// `nil` for an exchange shared by coalesced calls.
        let call: HTTPCall?
        var priority: RequestPriority
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var active = 0
        var maximumActive: Int?
        var isPaused = false
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        /// Waiters cancelled before they were registered.
        var cancelledEarly: Set<UInt64> = []

        /// Whether one more request may go on the wire now, waiters aside.
        var hasFreePlace: Bool { !isPaused && active < (maximumActive ?? .max) }
    }

    private let state = Mutex(State())

    var maximumActive: Int? {
        get { state.withLock { $0.maximumActive } }
        set { resumeAll(state.withLock { state in
            state.maximumActive = newValue.map { max(1, $0) }
            return Self.admit(&state)
        }) }
    }

    var isPaused: Bool { state.withLock { $0.isPaused } }

    func pause() {
        state.withLock { state in
            state.isPaused = true
        }
    }

    func resume() {
        resumeAll(state.withLock { state in
            state.isPaused = false
            return Self.admit(&state)
        })
    }

    /// The calls waiting for a place, in the order they will be sent.
    var pending: [HTTPCall] { state.withLock { $0.waiters.compactMap(\.call) } }

    /// Moves a waiting call to its new priority.
    func reprioritize(_ call: HTTPCall, to priority: RequestPriority) {
        state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.call === call }) else { return }
            var waiter = state.waiters.remove(at: index)
            waiter.priority = priority
            Self.insert(waiter, into: &state.waiters)
        }
    }

    /// Takes a place on the network when one is free and nobody waits for it; otherwise the
    /// caller waits with ``acquire(for:priority:)``. Synchronous, so that the usual case costs
    /// no async call.
    func tryAcquire() -> Bool {
        state.withLock { Self.takeFreePlace(&$0) }
    }

    private static func takeFreePlace(_ state: inout State) -> Bool {
        guard state.hasFreePlace, state.waiters.isEmpty else { return false }
        state.active += 1
        return true
    }

    /// Waits for a place on the network, as `call` (listed in ``pending``, withdrawn by its
    /// cancel) or, for an exchange shared by coalesced calls, as nobody's.
    ///
    /// - Throws: `CancellationError` when the task or the call is cancelled while waiting.
    @inline(never)  // The wait's continuation and handler would widen every sender's async frame.
    func acquire(for call: HTTPCall?, priority: RequestPriority) async throws {
        let id: UInt64? = state.withLock { state in
            if Self.takeFreePlace(&state) { return nil }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admitted: [CheckedContinuation<Void, any Error>]? = state.withLock { state in
                    // A call cancelled before it got here: its withdrawal found no waiter.
                    if state.cancelledEarly.remove(id) != nil || call?.isCancelled == true { return nil }
                    // The call's priority as it is now: a change made since it was read is not lost.
                    let priority = call?.priority ?? priority
                    Self.insert(Waiter(id: id, call: call, priority: priority, continuation: continuation), into: &state.waiters)
                    return Self.admit(&state)
                }
                if let admitted { resumeAll(admitted) } else { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let removed: CheckedContinuation<Void, any Error>? = state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index).continuation
            }
            removed?.resume(throwing: CancellationError())
        }
    }

    /// Takes a call's waiter off the queue and makes its ``acquire(for:priority:)`` throw
    /// `CancellationError`: a cancelled call that is waiting never goes on the wire, also when
    /// it runs in a task that is not cancelled.
    func withdraw(_ call: HTTPCall) {
        let removed: CheckedContinuation<Void, any Error>? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.call === call }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        removed?.resume(throwing: CancellationError())
    }

    /// Gives back a place taken by ``acquire(for:priority:)``.
    func release() {
        resumeAll(state.withLock { state in
            state.active -= 1
            return Self.admit(&state)
        })
    }

    /// Takes waiters off the queue while places are free; the caller resumes them unlocked.
    private static func admit(_ state: inout State) -> [CheckedContinuation<Void, any Error>] {
        var admitted: [CheckedContinuation<Void, any Error>] = []
        while state.hasFreePlace, !state.waiters.isEmpty {
            state.active += 1
            admitted.append(state.waiters.removeFirst().continuation)
        }
        return admitted
    }

    /// Keeps waiters sorted by priority, first come first served within one.
    private static func insert(_ waiter: Waiter, into waiters: inout [Waiter]) {
        let index = waiters.firstIndex { $0.priority < waiter.priority } ?? waiters.endIndex
        waiters.insert(waiter, at: index)
    }

    private func resumeAll(_ continuations: [CheckedContinuation<Void, any Error>]) {
        for continuation in continuations { continuation.resume() }
    }
}
