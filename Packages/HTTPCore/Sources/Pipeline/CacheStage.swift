/// Asks the session's cache (``HTTPResponseCache``, JewzCache's `HTTPCache`) for each exchange:
/// it may answer from its store, or send the request (made conditional, or not) through the
/// stages below and store the answer — a body still arriving by wrapping its stream. Below
/// authentication, retries and redirects, so each hop and each challenge's answer is looked up
/// and stored on its own; above cookies and the network. A download's request for the rest of
/// its file goes around the cache (`goesAroundCache`): the origin answers it
/// against the file's validator; any other `Range` (a proxy's client's, a caller's) the cache
/// answers where it can. In the pipeline when the session has a cache.
struct CacheStage: HTTPMiddleware {
    let cache: any HTTPResponseCache

    var name: String { "cache" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        if request.goesAroundCache { return try await next(request) }
        return try await cache.response(for: request, caching: next.options.caching, session: next.call.session) { request in
            try await next(request)
        }
    }
}
