/// Holds a request until the session lets it on the network: at most
/// ``HTTPSession/Configuration/maximumActiveRequests`` at once, none while the session is
/// paused, waiting ones by their cycle's priority. A place is held for the exchange only (to the
/// end of a body that streams), and a shared (coalesced) exchange waits as nobody's cycle, so
/// that one waiter's cancel does not withdraw it. In the pipeline when the session sets a maximum or is paused: a run that
/// started before either goes on without waiting.
struct QueueStage: HTTPMiddleware {
    let queue: RequestQueue

    var name: String { "queue" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let run = next.run
        if !queue.tryAcquire() {
            try await queue.acquire(for: next.isShared ? nil : run.cycle, priority: run.priority)
        }
        var response: HTTPResponse
        do {
            // A cancel that came while the cycle waited for its place stops it here.
            try run.checkCancellation(sharing: next.isShared)
            response = try await next(request)
        } catch {
            queue.release()
            throw error
        }
        // A body still arriving holds the place until it ends.
        response.whenBodyEnds { [queue] _ in queue.release() }
        return response
    }
}
