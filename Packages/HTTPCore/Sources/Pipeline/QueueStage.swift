/// Holds a request until the session lets it on the network: at most
/// ``HTTPSession/Configuration/maximumActiveRequests`` at once, none while the session is
/// paused, waiting ones by their call's priority. A place is held for the exchange only (to the
/// end of a body that streams), and a shared (coalesced) exchange waits as nobody's call, so
/// that one waiter's cancel does not withdraw it. A call whose task's priority is escalated while
/// it waits (a higher-priority task awaiting it) moves up as if its ``HTTPCall/priority`` were
/// raised. In the pipeline when the session sets a maximum or is paused: a run that started
/// before either goes on without waiting.
struct QueueStage: HTTPMiddleware {
    let queue: RequestQueue

    var name: String { "queue" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let call = next.call
        if !queue.tryAcquire() {
            if next.isShared {
                try await queue.acquire(for: nil, priority: call.priority)
            } else {
                try await withTaskPriorityEscalationHandler {
                    try await queue.acquire(for: call, priority: call.priority)
                } onPriorityEscalated: { _, escalated in
                    call.raisePriority(to: RequestPriority(escalated))
                }
            }
        }
        var response: HTTPResponse
        do {
            // A cancel that came while the call waited for its place stops it here.
            try call.checkCancellation(sharing: next.isShared)
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
