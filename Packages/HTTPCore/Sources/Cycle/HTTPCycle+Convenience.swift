import Foundation

// Making a cycle from a URL string, and sending a request value: the one way every one-call
// form sends. An invalid URL string throws `HTTPError.invalidURL` before anything is sent.
extension HTTPCycle {
    /// Creates a cycle for a URL string with `parameters` merged into its query.
    ///
    /// With a ``HTTPSession/Configuration-swift.struct/baseURL``, a string without a scheme is
    /// a path under it: `"/users/42"` and `"users/42"` on `https://api.test/v1` both give
    /// `https://api.test/v1/users/42` (httpx's rule, not RFC 3986's, which would drop `v1`).
    ///
    /// - Throws: ``HTTPError/Code/invalidURL`` when the string is not an absolute http(s) URL
    ///   (or, with a base URL, a path under it).
    public convenience init(
        _ urlString: String, method: HTTPMethod, parameters: QueryParameters = [:], headers: HTTPHeaderFields = [:],
        requestObject: (any Sendable)? = nil, timeout: Duration? = nil, options: Options = Options(),
        session: HTTPSession = .default
    ) throws {
        let merged = session.resolvingAgainstBaseURL(urlString.mergingQueryParameters(parameters))
        guard let url = session.parsedURLMemo.sendableURL(merged) else { throw HTTPError.invalidURL(urlString) }
        self.init(
            request: HTTPRequest(url: url, method: method, headers: headers, object: requestObject, timeout: timeout),
            session: session, requestProcessors: options.requestProcessors, responseProcessors: options.responseProcessors,
            authentications: options.authentications, solicited: options.solicited, retryPolicy: options.retryPolicyStorage,
            vettedURL: url)
    }

    /// Creates a cycle for `request` with the cycle's own `options`.
    package convenience init(request: HTTPRequest, options: Options, session: HTTPSession) {
        self.init(
            request: request, session: session, requestProcessors: options.requestProcessors,
            responseProcessors: options.responseProcessors, authentications: options.authentications,
            solicited: options.solicited, retryPolicy: options.retryPolicyStorage, vettedURL: nil)
    }

    /// Sends `request` and returns the finished cycle: the one-call form for a request value
    /// made in full (URL, method, headers, body, timeout). It runs in the calling task, which
    /// cancels it.
    ///
    /// - Throws: ``HTTPError``, as ``start()``; ``HTTPError/Code/invalidURL`` and
    ///   ``HTTPError/Code/invalidHeader`` before anything is sent.
    @discardableResult
    public static func send(_ request: HTTPRequest, options: Options = Options(), session: HTTPSession = .default) async throws -> HTTPCycle {
        let cycle = HTTPCycle(request: request, options: options, session: session)
        try await cycle.startUnshared()
        return cycle
    }

    /// Sends `request`, returns the cycle at once and calls `completion` on the session's
    /// completion queue.
    @discardableResult
    public static func send(
        _ request: HTTPRequest, options: Options = Options(), session: HTTPSession = .default, completion: @escaping Completion
    ) -> HTTPCycle {
        let cycle = HTTPCycle(request: request, options: options, session: session)
        cycle.start(completion: completion)
        return cycle
    }
}
