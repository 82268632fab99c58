/// Sends the session's cookie jar's matching cookies with each exchange (after any the request
/// set itself), and stores the cookies each response sets, redirects and challenges included.
/// Below the cache: a stored answer sets no cookies again. In the pipeline when the session has
/// a cookie jar.
struct CookieStage: HTTPMiddleware {
    let jar: any HTTPCookieStorage

    var name: String { "cookies" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var request = request
        if let field = jar.cookieField(for: request.url) {
            request.headers["Cookie"] = request.headers["Cookie"].map { "\($0); \(field)" } ?? field
        }
        let response = try await next(request)
        jar.store(response.headers.values(for: "Set-Cookie"), from: request.url)
        return response
    }
}
