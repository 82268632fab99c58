import Foundation

// Making a cycle from a URL string (an invalid one throws `HTTPError.invalidURL` before anything
// is sent), and sending a request value with a completion handler.
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
        requestObject: (any Sendable)? = nil, timeout: Duration? = nil, options: HTTPRequestOptions = HTTPRequestOptions(),
        session: HTTPSession = .default
    ) throws {
        let merged = session.resolvingAgainstBaseURL(urlString.mergingQueryParameters(parameters))
        guard let url = session.parsedURLMemo.sendableURL(merged) else { throw HTTPError.invalidURL(urlString) }
        self.init(
            request: HTTPRequest(url: url, method: method, headers: headers, object: requestObject, timeout: timeout),
            options: options, session: session, vettedURL: url)
    }

    /// Sends `request`, returns the cycle at once and calls `completion` on the session's
    /// completion queue.
    @discardableResult
    public static func send(
        _ request: HTTPRequest, options: HTTPRequestOptions = HTTPRequestOptions(), session: HTTPSession = .default, completion: @escaping Completion
    ) -> HTTPCycle {
        let cycle = HTTPCycle(request: request, options: options, session: session)
        cycle.start(completion: completion)
        return cycle
    }
}
