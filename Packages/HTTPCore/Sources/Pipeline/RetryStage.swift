import Foundation

/// Sends a run's attempts: one, then more while the retry policy (the cycle's, else the
/// session's) asks for them — after a failure or a failing status, with its backoff or the
/// server's `Retry-After`, within the run's deadline. Reports each attempt to the monitors.
/// Always in the pipeline: a policy that never retries still makes the first attempt here.
struct RetryStage: HTTPMiddleware {
    var name: String { "retry" }

    // Inlined into its protocol witness, so that the stage is one async frame rather than two:
    // each frame is allocated for every request, and touched again, cold, when its response comes.
    @inline(__always)
    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let run = next.run
        var retries = 0
        while true {
            run.emitAttempt(request, number: retries + 1)
            let failure: HTTPError
            do {
                let response = try await next(request)
                guard let failed = run.failure(of: response, attempt: retries + 1) else { return response }
                failure = failed
            } catch {
                failure = HTTPError(transportError: error)
            }
            guard let delay = try Self.delay(after: failure, of: request, retries: retries, run: run) else {
                // No retry: a failing status is still the run's response; anything else its error.
                guard failure.code == .statusCode, let response = failure.response else { throw failure }
                return response
            }
            retries += 1
            try await Self.backOff(for: delay)
        }
    }

    /// How long to wait before the next attempt, or `nil` when the failure stands; records
    /// and reports a retry.
    ///
    /// - Throws: ``HTTPError/Code/cancelled`` when the cycle was cancelled meanwhile.
    @inline(never)
    private static func delay(after failure: HTTPError, of request: HTTPRequest, retries: Int, run: RequestRun) throws -> Duration? {
        try run.checkCancellation()
        // A one-shot body has been used up, and a streamed head is in the caller's hands:
        // the failure stands as it is.
        guard request.hasReplayableBody, !(run.bodies.channel?.hasDeliveredHead ?? false) else { return nil }
        let attempt = RetryAttempt(
            method: request.method, url: request.url, error: failure, retryCount: retries, solicited: run.solicited)
        guard let delay = run.retryPolicy.value.delay(for: attempt) else { return nil }
        // A retry that could not start before the run's deadline is not made: the failure stands.
        if let deadline = run.deadline, ClockReading.now + delay >= deadline { return nil }
        run.emit(.retrying(reason: failure, delay: delay, attempt: retries + 1, elapsed: ClockReading.now - run.started))
        run.cycle?.record(retryCount: retries + 1, of: run.generation)
        run.session.logger.debug(
            "retrying \(request.method) \(request.url.redactedString) in \(delay) after \(failure)",
            metadata: ["retry": "\(retries + 1)"])
        return delay
    }

    /// Waits before a retry. Not inlined: the sleep's machinery would widen the stage's async
    /// frame, which every request allocates and touches, for a path few take.
    @inline(never)
    private static func backOff(for delay: Duration) async throws {
        try await Task.sleep(for: delay)
    }
}
