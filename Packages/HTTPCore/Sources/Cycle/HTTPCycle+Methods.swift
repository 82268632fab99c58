import Foundation

// The one-call forms, all from one place: `HTTPCycle.get(…)`, `HTTPCycle.post(…)` and
// the others are `Sender` values, called like functions, each in an `async` form that sends
// once (``HTTPSession/send(_:options:)``) and returns the processed response, and a
// completion-handler form that returns a started cycle at once.
extension HTTPCycle {
    /// Sends requests of one method: ``HTTPCycle/get``, ``HTTPCycle/post`` and the others.
    ///
    /// ```swift
    /// let response = try await HTTPCycle.get("https://api.example.com/search", parameters: ["q": "swift"],
    ///                                        headers: ["Accept": "application/json"], timeout: .seconds(5))
    /// try HTTPCycle.delete("https://api.example.com/items/7") { cycle, error in /* … */ }
    /// ```
    public struct Sender: Sendable {
        package let method: HTTPMethod

        /// A sender of `method` requests, for methods without a static one (`OPTIONS`, `QUERY`…).
        public init(_ method: HTTPMethod) {
            self.method = method
        }

        /// Sends a request and returns the processed response: one
        /// ``HTTPSession/send(_:options:)``, in the calling task, whose cancellation cancels it.
        /// Keep a cycle (``HTTPCycle/init(_:method:parameters:headers:requestObject:timeout:options:session:)``)
        /// when you want to restart it or read its retry count.
        ///
        /// - Parameters:
        ///   - urlString: an absolute http(s) URL, or with the session's `baseURL`, a path under it.
        ///   - parameters: merged into the URL's query.
        ///   - headers: set on the request before the session's own are added.
        ///   - requestObject: what the request processors turn into the body.
        ///   - timeout: the longest the whole request may take (``HTTPRequestOptions/timeoutForResource``).
        ///   - options: the call's own processors, authentications, retry policy, body destination.
        ///   - session: the session that sends it; ``HTTPSession/default`` unless given.
        /// - Throws: ``HTTPError``: ``HTTPError/Code/invalidURL`` before anything is sent; for a
        ///   failing status, ``HTTPError/Code/statusCode`` with the response (status, headers,
        ///   body) in ``HTTPError/response``; the errors of ``HTTPSession/send(_:options:)`` otherwise.
        @discardableResult
        public func callAsFunction(
            _ urlString: String, parameters: QueryParameters = [:], headers: HTTPHeaderFields = [:],
            requestObject: (any Sendable)? = nil, timeout: Duration? = nil, options: HTTPRequestOptions = HTTPRequestOptions(), session: HTTPSession = .default
        ) async throws -> HTTPResponse {
            let (request, url) = try HTTPCycle.request(urlString, method, parameters, headers, requestObject, session)
            // Options copied only when there is a timeout to set in them.
            if let timeout { return try await session.send(request, options: options.bounded(by: timeout), vettedURL: url) }
            return try await session.send(request, options: options, vettedURL: url)
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
            let cycle = try HTTPCycle(
                urlString, method: method, parameters: parameters, headers: headers, requestObject: requestObject,
                timeout: timeout, options: options, session: session)
            cycle.start(completion: completion)
            return cycle
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
