import Foundation
import struct Synchronization.Atomic

// A cycle's runs: each is one call (``HTTPCall``) in a task of its own, begun as a new
// generation of ``CycleLifecycle``, and ends with the completion; what it leaves on the cycle
// is recorded only while it is the current generation.
extension HTTPCycle {
    /// Starts a run in a task of its own. Its outcome goes to `deliver`, and to `completion` on
    /// the session's queue unless a cancel or a restart says otherwise.
    ///
    /// - Parameter streaming: whether the run hands its body over as a stream, whatever the
    ///   cycle's delivery.
    func runInOwnTask(
        completion: Completion?, streaming: Bool = false, deliver: (@Sendable (Result<HTTPResponse, HTTPError>) -> Void)? = nil
    ) {
        var settings = state.withLock { $0.settings }
        if streaming { settings.delivery = .stream }
        let call = HTTPCall(session: session, settings: settings, vettedURL: vettedURL)
        let (generation, replaced) = state.withLock { state in
            state.retryCount = 0
            state.resumeData = nil
            return state.lifecycle.begin(call, completion: completion)
        }
        replaced?.cancel(explicitly: false)
        // The task holds no response: a streamed body is let go, and its transfer stopped, as
        // soon as its reader drops it.
        let task = Task {
            let outcome = await self.run(call, generation, completion: completion)
            deliver?(outcome)
        }
        // A cancel from the cycle, a restart or the session also stops what the task awaits.
        call.whenCancelled { task.cancel() }
    }

    /// A run for an awaiting caller: its task's cancellation cancels the cycle.
    func awaitRun(streaming: Bool) async throws -> HTTPResponse {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                runInOwnTask(completion: nil, streaming: streaming) { continuation.resume(with: $0) }
            }
        } onCancel: {
            self.cancel(explicitly: false)
        }
    }

    /// Joins the run in progress, or starts one when none is, and returns its outcome: how a
    /// caller shares a cycle that may have been started by someone else (a service's `.reuse`),
    /// without restarting it. A joiner whose task is cancelled leaves alone; a starter's
    /// cancellation cancels the run, as ``start()``'s does.
    ///
    /// - Throws: ``HTTPError``, as ``start()``; `CancellationError` for a joiner that left.
    @discardableResult
    package func startOrJoin() async throws -> HTTPResponse {
        let id = UUID()
        let started = Atomic(false)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
                let joins = state.withLock { state -> Bool in
                    guard state.lifecycle.call != nil, !Task.isCancelled else { return false }
                    state.joiners[id] = continuation
                    return true
                }
                guard !joins else { return }
                started.store(true, ordering: .releasing)
                runInOwnTask(completion: nil) { continuation.resume(with: $0.mapError { $0 }) }
            }
        } onCancel: {
            if let joiner = state.withLock({ $0.joiners.removeValue(forKey: id) }) {
                joiner.resume(throwing: CancellationError())
            } else if started.load(ordering: .acquiring) {
                cancel(explicitly: false)
            }
        }
    }

    /// One run from start to end: the call, then the completion — when the body streams, once
    /// it has been read.
    private func run(_ call: HTTPCall, _ generation: Int, completion: Completion?) async -> Result<HTTPResponse, HTTPError> {
        do {
            var response = try await call.execute()
            guard response.body.isStream else {
                record(response, of: generation, call: call)
                endRun(generation, with: .success(response), completion: completion)
                return .success(response)
            }
            let stream = response.body
            // The cycle keeps the head; the stream is the reader's alone.
            response.body = HTTPResponseBody(Data())
            record(response, of: generation, call: call)
            response.body = stream.whenFinished { [self, response] error in
                let failure = error.map { $0 as? HTTPError ?? HTTPError(transportError: $0) }
                endRun(generation, with: failure.map { .failure($0) } ?? .success(response), completion: completion)
            }
            return .success(response)
        } catch {
            record(error.response, of: generation, call: call, resumeData: error.resumeData)
            endRun(generation, with: .failure(error), completion: completion)
            return .failure(error)
        }
    }

    /// Records the end of a run, hands its outcome to the callers who joined it, and calls its
    /// completion handler, unless a cancel or a restart came first.
    private func endRun(_ generation: Int, with outcome: Result<HTTPResponse, HTTPError>, completion: Completion?) {
        let joiners = state.withLock { state -> [CheckedContinuation<HTTPResponse, any Error>] in
            guard state.lifecycle.end(generation) else { return [] }
            defer { state.joiners = [:] }
            return Array(state.joiners.values)
        }
        for joiner in joiners { joiner.resume(with: outcome.mapError { $0 }) }
        let failure: HTTPError? = if case .failure(let error) = outcome { error } else { nil }
        guard let completion else { return }
        session.completionQueue.async {
            // A cancel issued before the completion runs always wins; a restarted run's
            // completion belongs to the new run.
            if case .call(let error) = self.state.withLock({ $0.lifecycle.deliverCompletion(of: generation, failure: failure) }) {
                completion(self, error)
            }
        }
    }

    /// Keeps what a run leaves on the cycle — its final response (a failing status's too), its
    /// retry count, where its download can continue — unless a newer run started.
    private func record(_ response: HTTPResponse?, of generation: Int, call: HTTPCall, resumeData: DownloadResumeData? = nil) {
        let retryCount = call.retryCount
        state.withLock { state in
            guard state.lifecycle.generation == generation else { return }
            if let response { state.response = response }
            state.retryCount = retryCount
            state.resumeData = resumeData
        }
    }
}
