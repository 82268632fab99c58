/// Where a cycle's runs stand: which run is current, whether it is running or its completion
/// handler is still to come, and how it was cancelled. A value without I/O, changed only under
/// the cycle's lock, so that every transition can be tested on its own.
///
/// ```
/// idle ──begin──► running ──end──► idle                    (no completion handler)
///                    │       └────► completion pending ──deliver──► idle
///                    └──cancel──► cancelled (the run ends with the cancellation)
/// ```
/// A `begin` while running is a restart: the run before it is replaced and its result dropped.
struct CycleLifecycle {
    /// Counts runs, so that the result of a run that was restarted is dropped.
    private(set) var generation = 0
    /// Whether a run is between its start and its end.
    private(set) var running = false
    /// A finished run's completion handler is queued but has not run: a cancel still wins.
    private(set) var completionPending = false
    /// How the current run was cancelled, if it was.
    private(set) var cancellation: HTTPError?
    /// The handler of the current run, called with its outcome.
    private(set) var completion: HTTPCycle.Completion?
    /// The current run's task, when it has one of its own (cancelled by a cancel).
    private(set) var task: Task<HTTPResponse, any Error>?
    /// The exchange on the wire, stopped by a cancel where a run has no task of its own (the
    /// one-call forms) and the session cancels it.
    private var exchange: (any HTTPExchangeCancelling)?

    /// Whether a run is in progress or its completion handler has yet to run.
    var isBusy: Bool { running || completionPending }

    /// A new run starts.
    ///
    /// - Returns: its generation, and the task of the run it replaces, for the caller to cancel.
    mutating func begin(completion: HTTPCycle.Completion?) -> (generation: Int, previous: Task<HTTPResponse, any Error>?) {
        generation += 1
        self.completion = completion
        cancellation = nil
        completionPending = false
        running = true
        defer { task = nil }
        return (generation, task)
    }

    /// Keeps the task the run of `generation` runs in, if that run is still going.
    ///
    /// - Returns: whether a cancel came before the task was known: the caller cancels it.
    mutating func adopt(_ task: Task<HTTPResponse, any Error>, of generation: Int) -> Bool {
        guard self.generation == generation, running else { return false }
        self.task = task
        return cancellation != nil
    }

    /// Keeps the exchange of the running run, so that a cancel can stop it.
    ///
    /// - Returns: whether the run was cancelled already: the caller stops the exchange now.
    mutating func attach(_ exchange: any HTTPExchangeCancelling) -> Bool {
        guard cancellation == nil else { return true }
        self.exchange = exchange
        return false
    }

    /// A cancel: recorded when a run is in progress or its completion is pending.
    ///
    /// - Returns: the task and the exchange to stop, or `nil` when there is nothing to cancel.
    mutating func cancel(explicitly: Bool) -> (task: Task<HTTPResponse, any Error>?, exchange: (any HTTPExchangeCancelling)?)? {
        guard isBusy else { return nil }
        cancellation = .cancelled(explicitly: explicitly)
        defer { exchange = nil }
        return (task, exchange)
    }

    /// The run of `generation` ended; its completion handler, if it has one, is now pending.
    ///
    /// - Returns: whether that run was the current one (a replaced run's end changes nothing).
    mutating func end(_ generation: Int) -> Bool {
        guard self.generation == generation else { return false }
        task = nil
        exchange = nil
        running = false
        completionPending = completion != nil
        return true
    }

    /// The pending completion of the run of `generation` is about to be called.
    ///
    /// - Returns: the error to call it with (`.some(nil)` for success), or `nil` not to call it:
    ///   the run was replaced, or explicitly cancelled. An implicit cancellation wins over the
    ///   run's own outcome.
    mutating func deliverCompletion(of generation: Int, failure: HTTPError?) -> HTTPError?? {
        guard self.generation == generation else { return .none }
        completionPending = false
        if let cancellation {
            return cancellation.isExplicitCancellation ? .none : .some(cancellation)
        }
        return .some(failure)
    }

    /// The cancellation the run of `generation` ends with, if it was cancelled.
    func cancellation(of generation: Int) -> HTTPError? {
        self.generation == generation ? cancellation : nil
    }
}
