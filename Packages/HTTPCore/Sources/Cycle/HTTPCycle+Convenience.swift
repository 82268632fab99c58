import Foundation

// The seed's one-call forms: each sends at once, in an `async` form that returns the finished
// cycle and a completion-handler form that returns the cycle immediately. An invalid URL
// string throws `HTTPError.invalidURL` before anything is sent.
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
        _ urlString: String, method: HTTPMethod, parameters: QueryParameters = [:],
        requestObject: (any Sendable)? = nil, requestProcessors: [any HTTPProcessor]? = nil,
        responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default
    ) throws {
        let merged = session.resolve(urlString.mergingQueryParameters(parameters))
        guard let url = URL(string: merged), url.isSendableHTTP else { throw HTTPError.invalidURL(urlString) }
        self.init(
            request: HTTPRequest(url: url, method: method, object: requestObject), session: session,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors, authentications: authentications,
            solicited: solicited, retryPolicy: retryPolicy, vettedURL: url)
    }

    /// Sends a request and returns the finished cycle.
    ///
    /// The request runs in the calling task (no task of its own is created): cancelling that
    /// task cancels it.
    ///
    /// - Throws: ``HTTPError``: ``HTTPError/Code/invalidURL`` before anything is sent; for a
    ///   failing status, ``HTTPError/Code/statusCode`` with the response (status, headers,
    ///   body) in ``HTTPError/response``; the errors of ``HTTPCycle/start()`` otherwise.
    @discardableResult
    public static func send(
        _ method: HTTPMethod, _ urlString: String, parameters: QueryParameters = [:],
        requestObject: (any Sendable)? = nil, requestProcessors: [any HTTPProcessor]? = nil,
        responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default
    ) async throws -> HTTPCycle {
        let cycle = try make(
            method, urlString, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session)
        try await cycle.startUnshared()
        return cycle
    }

    /// The cycle ``send(_:_:parameters:requestObject:requestProcessors:responseProcessors:authentications:solicited:retryPolicy:session:)``
    /// runs. Not inlined: its temporaries would otherwise widen the async caller's frame, which
    /// every request allocates and touches again when its response comes.
    @inline(never)
    private static func make(
        _ method: HTTPMethod, _ urlString: String, parameters: QueryParameters, requestObject: (any Sendable)?,
        requestProcessors: [any HTTPProcessor]?, responseProcessors: [any HTTPProcessor]?,
        authentications: [any HTTPAuthentication]?, solicited: Bool, retryPolicy: RetryPolicy?, session: HTTPSession
    ) throws -> HTTPCycle {
        try HTTPCycle(
            urlString, method: method, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session)
    }

    /// Sends a request and returns the cycle at once; `completion` runs on the session's
    /// completion queue.
    @discardableResult
    public static func send(
        _ method: HTTPMethod, _ urlString: String, parameters: QueryParameters = [:],
        requestObject: (any Sendable)? = nil, requestProcessors: [any HTTPProcessor]? = nil,
        responseProcessors: [any HTTPProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, solicited: Bool = false, retryPolicy: RetryPolicy? = nil,
        session: HTTPSession = .default, completion: @escaping Completion
    ) throws -> HTTPCycle {
        let cycle = try HTTPCycle(
            urlString, method: method, parameters: parameters, requestObject: requestObject,
            requestProcessors: requestProcessors, responseProcessors: responseProcessors,
            authentications: authentications, solicited: solicited, retryPolicy: retryPolicy, session: session)
        cycle.start(completion: completion)
        return cycle
    }
}
