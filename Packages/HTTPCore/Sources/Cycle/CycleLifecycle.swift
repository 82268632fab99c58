/// Where a cycle's calls stand: which call is current, whether it is running or its completion
/// handler is still to come, and how it was cancelled. A value without I/O, changed only under
/// the cycle's lock, so that every transition can be tested on its own.
///
/// ```
/// idle ──begin──► running ──end──► idle                    (no completion handler)
///                    │       └────► completion pending ──deliver──► idle
///                    └──cancel──► running, cancelled (the call ends with the cancellation)
/// ```
/// A `begin` while running is a restart: the call before it is replaced and its result dropped.
struct CycleLifecycle {
    /// What the current call is doing; each state holds what only it has.
    private enum Phase {
        case idle
        /// Between the call's start and its end: the call, for a cancel to stop, and how it
        /// was cancelled.
        case running(HTTPCall, cancellation: HTTPError?)
        /// The call ended and its completion handler is queued but has not run: a cancel still wins.
        case completionPending(cancellation: HTTPError?)
    }

    /// Whether the completion handler of a call that ended is called, and with what.
    enum CompletionDelivery: Equatable {
        /// Call it with this failure, `nil` for success.
        case call(HTTPError?)
        /// Do not call it: the call was replaced by a restart, or cancelled explicitly.
        case skip

        /// Equal when both skip, or both call with errors of one code (and kind of cancellation).
        static func == (lhs: CompletionDelivery, rhs: CompletionDelivery) -> Bool {
            switch (lhs, rhs) {
            case (.skip, .skip): true
            case (.call(let left), .call(let right)):
                left?.code == right?.code && left?.isExplicitCancellation == right?.isExplicitCancellation
            default: false
            }
        }
    }

    /// Counts calls, so that the result of a call that was replaced by a restart is dropped.
    private(set) var generation = 0
    /// The handler of the current call, called with its outcome.
    private(set) var completion: HTTPCycle.Completion?
    private var phase = Phase.idle

    /// Whether a call is in progress or its completion handler has yet to run.
    var isBusy: Bool {
        if case .idle = phase { false } else { true }
    }

    /// The call in progress, if any.
    var call: HTTPCall? {
        if case .running(let call, _) = phase { call } else { nil }
    }

    /// How the current call was cancelled, if it was.
    private var cancellation: HTTPError? {
        switch phase {
        case .idle: nil
        case .running(_, let cancellation), .completionPending(let cancellation): cancellation
        }
    }

    /// `call` starts.
    ///
    /// - Returns: its generation, and the call it replaces, for the caller to cancel.
    mutating func begin(_ call: HTTPCall, completion: HTTPCycle.Completion?) -> (generation: Int, replaced: HTTPCall?) {
        generation += 1
        self.completion = completion
        let replaced = self.call
        phase = .running(call, cancellation: nil)
        return (generation, replaced)
    }

    /// A cancel: recorded when a call is in progress or its completion is pending.
    ///
    /// - Returns: the call to stop, if one is running.
    mutating func cancel(explicitly: Bool) -> HTTPCall? {
        let cancellation = HTTPError.cancelled(explicitly: explicitly)
        switch phase {
        case .idle:
            return nil
        case .running(let call, _):
            phase = .running(call, cancellation: cancellation)
            return call
        case .completionPending:
            phase = .completionPending(cancellation: cancellation)
            return nil
        }
    }

    /// The call of `generation` ended; its completion handler, if it has one, is now pending.
    ///
    /// - Returns: whether that call was the current one (a replaced call's end changes nothing).
    mutating func end(_ generation: Int) -> Bool {
        guard self.generation == generation else { return false }
        phase = completion == nil ? .idle : .completionPending(cancellation: cancellation)
        return true
    }

    /// The pending completion of the call of `generation` is about to be called: what to call it
    /// with. An implicit cancellation wins over the call's own outcome; an explicit one, or a
    /// restart since, means it is not called.
    mutating func deliverCompletion(of generation: Int, failure: HTTPError?) -> CompletionDelivery {
        guard self.generation == generation, case .completionPending(let cancellation) = phase else { return .skip }
        phase = .idle
        guard let cancellation else { return .call(failure) }
        return cancellation.isExplicitCancellation ? .skip : .call(cancellation)
    }
}
