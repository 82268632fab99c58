import Foundation

// The one-call forms, all from one place: `HTTPCycle.get(…)`, `HTTPCycle.post(…)` and
// the others are `Sender` values, called like functions, each in an `async` form that returns
// the processed response and a completion-handler form that returns the cycle at once.
extension HTTPCycle {
    /// Sends requests of one method: ``HTTPCycle/get``, ``HTTPCycle/post`` and the others.
    ///
    /// ```swift
    /// let response = try await HTTPCycle.get("https://api.example.com/search", parameters: ["q": "swift"],
    ///                                        headers: ["Accept": "application/json"], timeout: .seconds(5))
    /// try HTTPCycle.delete("https://api.example.com/items/7") { cycle, error in /* … */ }
    /// ```
    public struct Sender: Sendable {
        public let method: HTTPMethod

        /// A sender of `method` requests, for methods without a static one (`OPTIONS`, `QUERY`…).
        public init(_ method: HTTPMethod) {
            self.method = method
        }

        /// Sends a request and returns the processed response. The request runs in the calling
        /// task (no task of its own is created): cancelling that task cancels it. Keep a cycle
        /// (``HTTPCycle/init(_:method:parameters:headers:requestObject:timeout:options:session:)``)
        /// when you want to restart it or read its retry count.
        ///
        /// - Parameters:
        ///   - urlString: an absolute http(s) URL, or with the session's `baseURL`, a path under it.
        ///   - parameters: merged into the URL's query.
        ///   - headers: set on the request before the session's own are added.
        ///   - requestObject: what the request processors turn into the body.
        ///   - timeout: the longest the whole request may take (``HTTPRequest/timeout``).
        ///   - options: the cycle's own processors, authentications and retry policy.
        /// - Throws: ``HTTPError``: ``HTTPError/Code/invalidURL`` before anything is sent; for a
        ///   failing status, ``HTTPError/Code/statusCode`` with the response (status, headers,
        ///   body) in ``HTTPError/response``; the errors of ``HTTPCycle/start()`` otherwise.
        @discardableResult
        public func callAsFunction(
            _ urlString: String, parameters: QueryParameters = [:], headers: HTTPHeaderFields = [:],
            requestObject: (any Sendable)? = nil, timeout: Duration? = nil, options: HTTPRequestOptions = HTTPRequestOptions(), session: HTTPSession = .default
        ) async throws -> HTTPResponse {
            try await make(urlString, parameters, headers, requestObject, timeout, options, session).startUnshared()
        }

        /// Sends a request, returns the cycle at once and calls `completion` on the session's
        /// completion queue when it is done.
        ///
        /// - Throws: ``HTTPError/Code/invalidURL`` before anything is sent (then `completion`
        ///   is not called).
        @discardableResult
        public func callAsFunction(
            _ urlString: String, parameters: QueryParameters = [:], headers: HTTPHeaderFields = [:],
            requestObject: (any Sendable)? = nil, timeout: Duration? = nil, options: HTTPRequestOptions = HTTPRequestOptions(), session: HTTPSession = .default,
            completion: @escaping Completion
        ) throws -> HTTPCycle {
            let cycle = try make(urlString, parameters, headers, requestObject, timeout, options, session)
            cycle.start(completion: completion)
            return cycle
        }

        /// The cycle a call sends. Not inlined: its temporaries would otherwise widen the async
        /// caller's frame, which every request allocates and touches again when its response comes.
        @inline(never)
        package func make(
            _ urlString: String, _ parameters: QueryParameters, _ headers: HTTPHeaderFields, _ requestObject: (any Sendable)?,
            _ timeout: Duration?, _ options: HTTPRequestOptions, _ session: HTTPSession
        ) throws -> HTTPCycle {
            try HTTPCycle(
                urlString, method: method, parameters: parameters, headers: headers, requestObject: requestObject,
                timeout: timeout, options: options, session: session)
        }
    }

    /// Sends GET requests: `try await HTTPCycle.get(url)`. See ``Sender``.
    public static let get = Sender(.get)
    /// Sends POST requests: `try await HTTPCycle.post(url, requestObject: form)`. See ``Sender``.
    public static let post = Sender(.post)
    /// Sends PUT requests. See ``Sender``.
    public static let put = Sender(.put)
    /// Sends PATCH requests. See ``Sender``.
    public static let patch = Sender(.patch)
    /// Sends DELETE requests. See ``Sender``.
    public static let delete = Sender(.delete)
    /// Sends HEAD requests. See ``Sender``.
    public static let head = Sender(.head)
}
