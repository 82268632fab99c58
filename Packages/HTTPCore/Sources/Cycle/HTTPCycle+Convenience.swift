import Foundation

// Making a request from a URL string (an invalid one throws `HTTPError.invalidURL` before
// anything is sent), for a cycle or a one-call form.
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
        let (request, url) = try Self.request(urlString, method, parameters, headers, requestObject, session)
        self.init(request: request, options: options.bounded(by: timeout), session: session, vettedURL: url)
    }

    /// The request a URL string names, with its URL checked. Not inlined: its temporaries would
    /// otherwise widen the async caller's frame, which every request allocates and touches
    /// again when its response comes.
    ///
    /// - Throws: ``HTTPError/Code/invalidURL``.
    @inline(never)
    package static func request(
        _ urlString: String, _ method: HTTPMethod, _ parameters: QueryParameters, _ headers: HTTPHeaderFields,
        _ requestObject: (any Sendable)?, _ session: HTTPSession
    ) throws -> (HTTPRequest, URL) {
        let merged = session.resolvingAgainstBaseURL(urlString.mergingQueryParameters(parameters))
        guard let url = session.parsedURLMemo.sendableURL(merged) else { throw HTTPError.invalidURL(urlString) }
        return (HTTPRequest(url: url, method: method, headers: headers, object: requestObject), url)
    }
}

extension HTTPRequestOptions {
    /// These options, with `timeout` as their ``timeoutForResource`` when there is one: how the
    /// one-call forms' `timeout` parameter reaches the call.
    package consuming func bounded(by timeout: Duration?) -> HTTPRequestOptions {
        if let timeout { timeoutForResource = timeout }
        return self
    }
}
