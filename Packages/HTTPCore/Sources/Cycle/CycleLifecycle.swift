/// Where a cycle's runs stand: which run is current, whether it is running or its completion
/// handler is still to come, and how it was cancelled. A value without I/O, changed only under
/// the cycle's lock, so that every transition can be tested on its own.
///
/// ```
/// idle ──begin──► running ──end──► idle                    (no completion handler)
///                    │       └────► completion pending ──deliver──► idle
///                    └──cancel──► running, cancelled (the run ends with the cancellation)
/// ```
/// A `begin` while running is a restart: the run before it is replaced and its result dropped.
struct CycleLifecycle {
    /// What the current run is doing; each state holds what only it has.
    private enum Phase {
        case idle
        /// Between the run's start and its end: the task it runs in, when it has one of its
        /// own, and the exchange on the wire, for a cancel to stop; how it was cancelled.
        case running(task: Task<HTTPResponse, any Error>?, exchange: (any HTTPExchangeCancelling)?, cancellation: HTTPError?)
        /// The run ended and its completion handler is queued but has not run: a cancel still wins.
        case completionPending(cancellation: HTTPError?)
    }

    /// Whether the completion handler of a run that ended is called, and with what.
    enum CompletionDelivery: Equatable {
        /// Call it with this failure, `nil` for success.
        case call(HTTPError?)
        /// Do not call it: the run was replaced by a restart, or cancelled explicitly.
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

    /// Counts runs, so that the result of a run that was restarted is dropped.
    private(set) var generation = 0
    /// The handler of the current run, called with its outcome.
    private(set) var completion: HTTPCycle.Completion?
    private var phase = Phase.idle

    /// Whether a run is in progress or its completion handler has yet to run.
    var isBusy: Bool {
        if case .idle = phase { false } else { true }
    }

    /// How the current run was cancelled, if it was.
    private var cancellation: HTTPError? {
        switch phase {
        case .idle: nil
        case .running(_, _, let cancellation), .completionPending(let cancellation): cancellation
        }
    }

    /// A new run starts.
    ///
    /// - Returns: its generation, and the task of the run it replaces, for the caller to cancel.
    mutating func begin(completion: HTTPCycle.Completion?) -> (generation: Int, previous: Task<HTTPResponse, any Error>?) {
        generation += 1
        self.completion = completion
        var previous: Task<HTTPResponse, any Error>?
        if case .running(let task, _, _) = phase { previous = task }
        phase = .running(task: nil, exchange: nil, cancellation: nil)
        return (generation, previous)
    }

    /// Keeps the task the run of `generation` runs in, if that run is still going.
    ///
    /// - Returns: whether a cancel came before the task was known: the caller cancels it.
    mutating func adopt(_ task: Task<HTTPResponse, any Error>, of generation: Int) -> Bool {
        guard self.generation == generation, case .running(_, let exchange, let cancellation) = phase else { return false }
        phase = .running(task: task, exchange: exchange, cancellation: cancellation)
        return cancellation != nil
    }

    /// Keeps the exchange of the running run, so that a cancel can stop it.
    ///
    /// - Returns: whether the run was cancelled already: the caller stops the exchange now.
    mutating func attach(_ exchange: any HTTPExchangeCancelling) -> Bool {
        guard case .running(let task, _, nil) = phase else { return cancellation != nil }
        phase = .running(task: task, exchange: exchange, cancellation: nil)
        return false
    }

    /// A cancel: recorded when a run is in progress or its completion is pending.
    ///
    /// - Returns: the task and the exchange to stop, or `nil` when there is nothing to cancel.
    mutating func cancel(explicitly: Bool) -> (task: Task<HTTPResponse, any Error>?, exchange: (any HTTPExchangeCancelling)?)? {
        let cancellation = HTTPError.cancelled(explicitly: explicitly)
        switch phase {
        case .idle:
            return nil
        case .running(let task, let exchange, _):
            phase = .running(task: task, exchange: nil, cancellation: cancellation)
            return (task, exchange)
        case .completionPending:
            phase = .completionPending(cancellation: cancellation)
            return (nil, nil)
        }
    }

    /// The run of `generation` ended; its completion handler, if it has one, is now pending.
    ///
    /// - Returns: whether that run was the current one (a replaced run's end changes nothing).
    mutating func end(_ generation: Int) -> Bool {
        guard self.generation == generation else { return false }
        phase = completion == nil ? .idle : .completionPending(cancellation: cancellation)
        return true
    }

    /// The pending completion of the run of `generation` is about to be called: what to call it
    /// with. An implicit cancellation wins over the run's own outcome; an explicit one, or a
    /// restart since, means it is not called.
    mutating func deliverCompletion(of generation: Int, failure: HTTPError?) -> CompletionDelivery {
        guard self.generation == generation, case .completionPending(let cancellation) = phase else { return .skip }
        phase = .idle
        guard let cancellation else { return .call(failure) }
        return cancellation.isExplicitCancellation ? .skip : .call(cancellation)
    }

    /// The cancellation the run of `generation` ends with, if it was cancelled.
    func cancellation(of generation: Int) -> HTTPError? {
        self.generation == generation ? cancellation : nil
    }
}
