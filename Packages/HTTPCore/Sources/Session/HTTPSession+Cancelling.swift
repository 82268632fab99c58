import Foundation

extension HTTPSession {
    /// The session's calls in progress — every `send` and every running cycle's call — those
    /// waiting in its queue and those whose streamed body is still being read included.
    public var runningCalls: [HTTPCall] { activity.calls }

    /// Cancels the calls in progress (queued ones included) whose request matches. Each ends
    /// with ``HTTPError/Code/cancelled``, and every caller hears of it: a `send` throws it, an
    /// awaiting cycle too, a cycle's completion handler is called with it. (Only
    /// ``HTTPCycle/cancel(explicitly:)`` with `true`, a person cancelling one cycle they hold,
    /// skips the handler.)
    ///
    /// ```swift
    /// session.cancelCalls(method: .get, path: "/users")   // every GET of /users
    /// session.cancelCalls(path: "https://api.test/v1/upload")
    /// ```
    ///
    /// - Parameters:
    ///   - method: only requests with this method; `nil` for any.
    ///   - path: only requests to this path (the query is not compared): a path resolved
    ///     against the session's `baseURL` as requests' own are, or an absolute URL; `nil`
    ///     for any.
    /// - Returns: how many calls were cancelled.
    @discardableResult
    public func cancelCalls(method: HTTPMethod? = nil, path: String? = nil) -> Int {
        let wanted = path.flatMap { URL(string: resolvingAgainstBaseURL($0)) }
        if path != nil, wanted == nil { return 0 }
        return cancelCalls { request in
            if let method, request.method != method { return false }
            if let wanted {
                let absolute = path?.contains("://") == true
                return request.url.path == wanted.path && (!absolute || request.url.origin == wanted.origin)
            }
            return true
        }
    }

    /// Cancels every call in progress, queued ones included (a sign-out, a shutdown); each
    /// caller hears of it, as with ``cancelCalls(method:path:)``.
    ///
    /// - Returns: how many calls were cancelled.
    @discardableResult
    public func cancelAllCalls() -> Int {
        cancelCalls { _ in true }
    }

    /// Cancels the calls in progress whose request satisfies `predicate`; each caller hears of
    /// it, as with ``cancelCalls(method:path:)``.
    ///
    /// - Returns: how many calls were cancelled.
    @discardableResult
    public func cancelCalls(where predicate: (HTTPRequest) -> Bool) -> Int {
        let matching = activity.calls.filter { !$0.isCancelled && predicate($0.request) }
        for call in matching { call.cancel(explicitly: false) }
        return matching.count
    }
}
