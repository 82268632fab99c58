import JewzLocking

// What changes while a call runs: its cancellation, its place in the queue, its retries; and
// how each wait of the path hears a cancel that does not come through the calling task.
extension HTTPCall {
    struct Control {
        var priority: RequestPriority
        var retryCount = 0
        /// How the call was cancelled, once it was.
        var cancellation: HTTPError?
        /// The exchange on the wire, for a cancel to stop.
        var exchange: (any HTTPExchangeCancelling)?
        /// What stops the waits in progress (a backoff, a shared exchange), by the number
        /// ``whileWaiting(onCancel:_:)`` gave them.
        var cancelHandlers: [Int: @Sendable () -> Void] = [:]
        var nextHandler = 0
    }

    /// Where the call waits in its session's queue: higher goes first. Setting it moves a call
    /// that is waiting; one on the wire is not affected.
    public var priority: RequestPriority {
        get { control.withLock { $0.priority } }
        set {
            control.withLock { $0.priority = newValue }
            session.queue.reprioritize(self, to: newValue)
        }
    }

    /// Raises the call's priority to `priority` unless it is higher already: what a task
    /// priority escalation does to a waiting call.
    func raisePriority(to priority: RequestPriority) {
        let raised = control.withLock { control in
            guard priority > control.priority else { return false }
            control.priority = priority
            return true
        }
        if raised { session.queue.reprioritize(self, to: priority) }
    }

    /// How many times the call sent its request again after a failure, so far.
    var retryCount: Int { control.withLock { $0.retryCount } }

    /// Whether the call was cancelled.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Stops the call wherever it is — waiting in the queue, between retries, on the wire, or
    /// while its streamed body is read — and makes it end with ``HTTPError/Code/cancelled``:
    /// `send` throws it, a cycle completes with it. Does nothing once the call was cancelled.
    ///
    /// - Parameter explicitly: whether a person asked for it (``HTTPError/isExplicitCancellation``);
    ///   a cycle started with a completion handler does not call it then.
    public func cancel(explicitly: Bool = false) {
        let stopping = control.withLock { control -> (exchange: (any HTTPExchangeCancelling)?, handlers: [@Sendable () -> Void])? in
            guard control.cancellation == nil else { return nil }
            control.cancellation = .cancelled(explicitly: explicitly)
            cancelled.store(true, ordering: .releasing)
            defer { control.cancelHandlers = [:] }
            return (control.exchange, Array(control.cancelHandlers.values))
        }
        guard let stopping else { return }
        stopping.exchange?.cancel()
        for handler in stopping.handlers { handler() }
        session.queue.withdraw(self)
    }

    /// How the call was cancelled, if it was.
    var cancellation: HTTPError? {
        control.withLock { $0.cancellation }
    }

    /// Throws when the call was cancelled, or its task was.
    ///
    /// - Parameters:
    ///   - shared: whether the caller works for an exchange shared by coalesced calls, which
    ///     only its own task's cancellation stops.
    ///   - includingTask: whether to ask the task too, a thread-local lookup that the path
    ///     skips between its own stages (a user's stage, the transport's entry and the call's
    ///     end ask).
    func checkCancellation(sharing shared: Bool = false, includingTask: Bool = true) throws {
        if !shared, isCancelled { throw CancellationError() }
        if includingTask, Task.isCancelled { throw CancellationError() }
    }

    /// Keeps the exchange on the wire, so that ``cancel(explicitly:)`` can stop it, or stops it
    /// now when the call was cancelled before it started.
    func attach(_ exchange: any HTTPExchangeCancelling) {
        let cancelledAlready = control.withLock { control in
            if control.cancellation != nil { return true }
            if let earlier = control.exchange {
                // An attempt a middleware sent beside this one (a hedge) may still be on the
                // wire: a cancel stops it too.
                control.nextHandler += 1
                control.cancelHandlers[control.nextHandler] = { earlier.cancel() }
            }
            control.exchange = exchange
            return false
        }
        if cancelledAlready { exchange.cancel() }
    }

    /// Calls `onCancel` if the call is cancelled while `operation` runs (at once, when it was
    /// cancelled before): how a wait that does not watch the call hears of it.
    nonisolated(nonsending) func whileWaiting<T>(
        onCancel: @escaping @Sendable () -> Void, _ operation: () async throws -> T
    ) async rethrows -> T {
        guard let id = register(onCancel) else {
            onCancel()
            return try await operation()
        }
        defer { _ = control.withLock { $0.cancelHandlers.removeValue(forKey: id) } }
        return try await operation()
    }

    /// Calls `action` when the call is cancelled (at once, when it was already), for as long
    /// as the call lasts: how a cycle's own task is stopped by a cancel from elsewhere.
    func whenCancelled(_ action: @escaping @Sendable () -> Void) {
        if register(action) == nil { action() }
    }

    /// Keeps `handler` for ``cancel(explicitly:)`` to call, and returns its number; `nil`, keeping
    /// nothing, when the call was cancelled already.
    private func register(_ handler: @escaping @Sendable () -> Void) -> Int? {
        control.withLock { control in
            guard control.cancellation == nil else { return nil }
            control.nextHandler += 1
            control.cancelHandlers[control.nextHandler] = handler
            return control.nextHandler
        }
    }

    /// Waits `delay` (a backoff between attempts), unless the call or its task is cancelled.
    ///
    /// - Throws: `CancellationError`.
    func sleep(for delay: Duration) async throws {
        let sleeper = Task { try await Task.sleep(for: delay) }
        try await withTaskCancellationHandler {
            try await whileWaiting(onCancel: { sleeper.cancel() }) { try await sleeper.value }
        } onCancel: {
            sleeper.cancel()
        }
    }

    /// Counts a retry.
    func record(retryCount: Int) {
        control.withLock { $0.retryCount = retryCount }
    }
}
