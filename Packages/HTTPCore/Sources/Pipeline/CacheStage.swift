/// Asks the session's cache (``HTTPResponseCache``, JewzCache's `HTTPCache`) for each exchange:
/// it may answer from its store, or send the request (made conditional, or not) through the
/// stages below and store the answer. Below authentication, retries and redirects, so each hop
/// and each challenge's answer is looked up and stored on its own; above cookies and the
/// network. A download's or a stream's body goes to the store as it is read, and a stored one
/// goes up as a stream read from the store 64 KiB at a time. `Range` requests go around the
/// cache. In the pipeline when the session has a cache.
struct CacheStage: HTTPMiddleware {
    let cache: any HTTPResponseCache

    var name: String { "cache" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let run = next.run
        if next.isShared || run.bodies.isInMemory {
            return try await cache.response(for: request, session: run.session) { request in try await next(request) }
        }
        guard !request.headers.contains("Range"), let cache = cache as? any HTTPStreamingResponseCache else {
            return try await next(request)
        }
        return try await Self.streamed(request, through: cache, next: next)
    }

    /// One exchange of a download or a stream: the network's body goes to the file or the
    /// reader as usual, copied to the cache as it arrives; a body the cache gives back goes
    /// there in pieces.
    @inline(never)
    private static func streamed(_ request: HTTPRequest, through cache: any HTTPStreamingResponseCache, next: HTTPNext) async throws -> HTTPResponse {
        let run = next.run
        let answer = try await cache.streamedResponse(for: request, session: run.session) { request, keeper in
            try await next.copyingBody(to: keeper)(request)
        }
        var response = answer.response
        // From the store, or a 304 the collector held back for the cache: its body goes up as
        // a stream, as the network's would, unless it stays in memory (a failing status, a
        // redirect to follow).
        if response.source != .network || response.statusCode == 304, !run.keepsInMemory(response) {
            response.stream = try HTTPResponseBody(stored: answer)
            response.data = .init()
        }
        return response
    }
}
