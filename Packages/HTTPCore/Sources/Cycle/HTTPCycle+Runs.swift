import Synchronization

// A cycle's runs: each starts with a new generation (``CycleLifecycle``), runs its
// ``RequestRun`` in a task of its own or the caller's, and ends with the completion; what a run
// reports back to its cycle is recorded only while it is the current generation.
extension HTTPCycle {
    /// Starts a new run in a task of its own and returns that task.
    func runInOwnTask(completion: Completion?, streamingTo channel: ResponseBodyChannel? = nil) -> Task<HTTPResponse, any Error> {
        let (generation, previous) = state.withLock { beginRun(&$0, completion: completion) }
        previous?.cancel()
        let task = Task {
            // The cycle keeps the response, and the task hands a copy to whoever awaits it.
            try await self.run(generation, completion: completion, channel: channel) { response in
                self.record(copy response, of: generation)
                return response
            }
        }
        // The run may have ended already, or been cancelled before its task was known: record
        // the task only for a run still going, and pass on a cancel that came first.
        if state.withLock({ $0.lifecycle.adopt(task, of: generation) }) { task.cancel() }
        return task
    }

    /// As a run in its own task's start, unless others get hold of the cycle while it runs (the
    /// session's event monitors and queue, ``HTTPSession/pendingCycles``, the cycle's progress
    /// handlers): then it starts nothing and returns `nil`. One lock for both, as every
    /// one-call request asks.
    func beginUnreachableRun() -> (generation: Int, previous: Task<HTTPResponse, any Error>?, downloads: Bool)? {
        if session.hasEventMonitors.load(ordering: .acquiring) || session.queue.mayHoldRequests { return nil }
        return state.withLock { state in
            if state.settings.didSendBodyData != nil || state.settings.download?.didWriteData != nil { return nil }
            let (generation, previous) = beginRun(&state, completion: nil)
            return (generation, previous, state.settings.$download != nil)
        }
    }

    /// Marks a new run as started (its generation is the one that may go on) and returns its
    /// generation and the task of the run it replaces, for the caller to cancel.
    private func beginRun(_ state: inout State, completion: Completion?) -> (generation: Int, previous: Task<HTTPResponse, any Error>?) {
        state.retryCount = 0
        state.resumeData = nil
        let begun = state.lifecycle.begin(completion: completion)
        liveGeneration.store(begun.generation, ordering: .releasing)
        return begun
    }

    /// One run from start to end: the ``RequestRun`` (what ``HTTPSession/send(_:options:)``
    /// runs too), then the completion.
    ///
    /// - Parameter keep: records the run's final response on the cycle — a failing status's
    ///   too, before the error is thrown, and before a download's handler or the completion,
    ///   which read it there — and returns what the caller gets back, so that a caller who
    ///   wants only the cycle pays for no copy of the response.
    // Inlined into the two callers: a run is then one async frame (see ``RequestRun/perform(keep:)``).
    @inline(__always)
    nonisolated(nonsending) func run<Outcome>(
        _ generation: Int, completion: Completion?, channel: ResponseBodyChannel?, keep: (consuming HTTPResponse) -> Outcome
    ) async throws -> Outcome {
        let run = RequestRun(
            session: session, cycle: self, generation: generation, settings: state.withLock { $0.settings }, vettedURL: vettedURL,
            channel: channel)
        do {
            let outcome = try await run.execute(keep: keep)
            endRun(generation, failure: nil, completion: completion)
            return outcome
        } catch {
            endRun(generation, failure: error, completion: completion)
            throw error
        }
    }

    /// Records the end of a run and calls its completion handler, unless a cancel or a restart
    /// came first.
    private func endRun(_ generation: Int, failure: HTTPError?, completion: Completion?) {
        _ = state.withLock { $0.lifecycle.end(generation) }
        guard let completion else { return }
        session.completionQueue.async {
            // A cancel issued before the completion runs always wins; a restarted run's
            // completion belongs to the new run.
            if case .call(let error) = self.state.withLock({ $0.lifecycle.deliverCompletion(of: generation, failure: failure) }) {
                completion(self, error)
            }
        }
    }

    // MARK: What a run tells its cycle

    /// Throws when the run's task is cancelled, or the run was cancelled or replaced by a
    /// restart (which a run in the calling task learns only here).
    func checkCancellation(of generation: Int, includingTask: Bool = true) throws {
        if liveGeneration.load(ordering: .acquiring) != generation || includingTask && Task.isCancelled {
            throw CancellationError()
        }
    }

    /// The cancellation a run of `generation` ends with, as ``cancel(explicitly:)`` recorded it.
    func recordedCancellation(of generation: Int) -> HTTPError? {
        state.withLock { $0.lifecycle.cancellation(of: generation) }
    }

    /// Keeps a run's final response, unless a newer run started.
    func record(_ response: consuming HTTPResponse, of generation: Int) {
        // Moved in under the lock; dropped after it when a newer run started.
        var response = Optional(consume response)
        state.withLock { state in
            if state.lifecycle.generation == generation { state.response = response.take() }
        }
    }

    func record(retryCount: Int, of generation: Int) {
        state.withLock { state in
            if state.lifecycle.generation == generation { state.retryCount = retryCount }
        }
    }

    func record(_ resumeData: DownloadResumeData?, of generation: Int) {
        state.withLock { state in
            if state.lifecycle.generation == generation { state.resumeData = resumeData }
        }
    }

    /// Tells the session's monitors; the event (a copy of the request or response, a clock
    /// reading) is built only when someone listens.
    func emit(_ event: @autoclosure () -> HTTPEvent, to monitors: [any HTTPEventMonitor]) {
        guard !monitors.isEmpty else { return }
        let event = event()
        for monitor in monitors {
            monitor.cycle(self, didEmit: event)
        }
    }
}
