import Foundation

/// Sends a call's attempts: one, then more while the retry policy (the options', else the
/// session's) asks for them — after a failure or a failing status, with its backoff or the
/// server's `Retry-After`, within the call's deadline. Reports each attempt to the monitors.
/// Always in the pipeline: a policy that never retries still makes the first attempt here.
struct RetryStage: HTTPMiddleware {
    var name: String { "retry" }

    // Inlined into its protocol witness, so that the stage is one async frame rather than two:
    // each frame is allocated for every request, and touched again, cold, when its response comes.
    @inline(__always)
    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let call = next.call
        var retries = 0
        while true {
            call.emitAttempt(request, number: retries + 1)
            let failure: HTTPError
            do {
                let response = try await next(request)
                guard let failed = call.failure(of: response, attempt: retries + 1) else { return response }
                failure = failed
            } catch {
                failure = HTTPError(transportError: error)
            }
            guard let delay = try Self.delay(after: failure, of: request, retries: retries, call: call) else {
                // No retry: a failing status is still the run's response; anything else its error.
                guard failure.code == .statusCode, let response = failure.response else { throw failure }
                return response
            }
            retries += 1
            try await Self.backOff(for: delay, call: call)
        }
    }

    /// How long to wait before the next attempt, or `nil` when the failure stands; records
    /// and reports a retry. Also asked by a download's body cut off midway (``ContinuedBody``).
    ///
    /// - Throws: ``HTTPError/Code/cancelled`` when the call was cancelled meanwhile.
    @inline(never)
    static func delay(after failure: HTTPError, of request: HTTPRequest, retries: Int, call: HTTPCall) throws -> Duration? {
        try call.checkCancellation()
        // A one-shot body has been used up: the failure stands as it is.
        guard request.hasReplayableBody else { return nil }
        let attempt = RetryAttempt(
            method: request.method, url: request.url, error: failure, retryCount: retries, solicited: call.solicited,
            carriesIdempotencyKey: request.headers.contains("Idempotency-Key"))
        guard let delay = call.retryPolicy.value.delay(for: attempt) else { return nil }
        // A retry that could not start before the call's deadline is not made: the failure stands.
        if let deadline = call.deadline, ClockReading.now + delay >= deadline { return nil }
        call.emit(.retrying(reason: failure, delay: delay, attempt: retries + 1, elapsed: ClockReading.now - call.started))
        call.record(retryCount: retries + 1)
        call.settings.configuration.logger.debug(
            "retrying \(request.method) \(request.url.redactedString) in \(delay) after \(failure)",
            metadata: ["retry": "\(retries + 1)"])
        return delay
    }

    /// Waits before a retry, or until the call is cancelled. Not inlined: the sleep's machinery
    /// would widen the stage's async frame, which every request allocates and touches, for a
    /// path few take.
    @inline(never)
    private static func backOff(for delay: Duration, call: HTTPCall) async throws {
        try await call.sleep(for: delay)
    }
}
