/// Holds a request until the session lets it on the network: at most
/// ``HTTPSession/Configuration/maximumActiveRequests`` at once, none while the session is
/// paused, waiting ones by their cycle's priority. A place is held for the exchange only. A
/// session that sets no maximum and is not paused passes requests on without taking a lock.
struct QueueStage: HTTPMiddleware {
    let queue: RequestQueue

    var name: String { "queue" }

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        guard queue.mayHoldRequests else { return try await next(request) }
        return try await Self.admitted(request, by: queue, next: next)
    }

    /// The exchange, once a place is free. A shared (coalesced) exchange waits as nobody's
    /// cycle, so that one waiter's cancel does not withdraw it.
    @inline(never)
    private static func admitted(_ request: HTTPRequest, by queue: RequestQueue, next: HTTPNext) async throws -> HTTPResponse {
        let run = next.run
        if !queue.tryAcquire() {
            try await queue.acquire(for: next.isShared ? nil : run.cycle, priority: run.cycle.priority)
        }
        defer { queue.release() }
        // A cancel that came while the cycle waited for its place stops it here.
        try run.checkCancellation(sharing: next.isShared)
        return try await next(request)
    }
}
