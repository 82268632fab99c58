import Jewzruxin

/// Passes every request on untouched: what one step of the user's costs by itself.
struct NoOpMiddleware: HTTPMiddleware {
    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        try await next(request)
    }
}

/// `MIDDLEWARE=1`: the same GET through a session with one no-op middleware (as application
/// middleware, then as network middleware) against a session without, on the same server.
func middlewareCases(hello: String) -> (cases: [Case], sessions: [HTTPSession]) {
    let plain = HTTPSession()
    let application = HTTPSession(configuration: .init { $0.middleware = [NoOpMiddleware()] })
    let network = HTTPSession(configuration: .init { $0.networkMiddleware = [NoOpMiddleware()] })
    let without = Contender(name: "HTTPCycle.get, no middleware") { try await HTTPCycle.get(hello, session: plain) }
    let cases =
        atBothConcurrencies(
            "one no-op application middleware",
            Contender(name: "HTTPCycle.get, one application middleware") { try await HTTPCycle.get(hello, session: application) },
            without)
        + atBothConcurrencies(
            "one no-op network middleware",
            Contender(name: "HTTPCycle.get, one network middleware") { try await HTTPCycle.get(hello, session: network) }, without)
    return (cases, [plain, application, network])
}
