/// Shares one exchange among identical GETs in flight (same URL and headers) whose bodies are
/// kept in memory: the first sends it through the stages below, the others wait for its
/// response (``SingleFlight``). A waiter that is cancelled leaves alone; the exchange stops
/// when none is left. A request on a connection of its own (a handshake's) is never shared. In
/// the pipeline when the session coalesces identical GETs, of the calls whose body ends in memory.
struct CoalescingStage: HTTPMiddleware {
    /// What makes two requests identical: method, URL and headers.
    struct Key: Hashable, Sendable {
        let method: HTTPMethod
        let url: String
        let headers: [HTTPHeaderFields.Field]

        init(_ request: HTTPRequest) {
            method = request.method
            url = request.url.absoluteString
            headers = request.headers.fields
        }
    }

    let flights: SingleFlight<Key, HTTPResponse>

    var name: String { "coalescing" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        guard request.method == .get, request.dedicatedConnection == nil else { return try await next(request) }
        let call = next.call
        let shared = next.shared()
        return try await flights.value(for: Key(request), waitingFor: call) {
            call.emit(.requestCoalesced(request))
        } starting: {
            .init { try await shared(request) }
        }
    }
}
