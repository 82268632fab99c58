import Foundation

extension HTTPSession {
    /// The session's cycles with a run in progress, those waiting in its queue included.
    public var runningCycles: [HTTPCycle] { activity.cycles }

    /// Cancels the running cycles (queued ones included) whose request matches. Each ends with
    /// ``HTTPError/Code/cancelled``, and every caller hears of it: an awaiting one throws it, a
    /// completion handler is called with it. (Only ``HTTPCycle/cancel(explicitly:)`` with `true`,
    /// a person cancelling one cycle they hold, skips the handler.)
    ///
    /// ```swift
    /// session.cancelCycles(method: .get, path: "/users")   // every GET of /users
    /// session.cancelCycles(path: "https://api.test/v1/upload")
    /// ```
    ///
    /// - Parameters:
    ///   - method: only requests with this method; `nil` for any.
    ///   - path: only requests to this path (the query is not compared): a path resolved
    ///     against the session's `baseURL` as the cycles' own are, or an absolute URL; `nil`
    ///     for any.
    /// - Returns: how many cycles were cancelled.
    @discardableResult
    public func cancelCycles(method: HTTPMethod? = nil, path: String? = nil) -> Int {
        let wanted = path.flatMap { URL(string: resolvingAgainstBaseURL($0)) }
        if path != nil, wanted == nil { return 0 }
        return cancelCycles { request in
            if let method, request.method != method { return false }
            if let wanted {
                let absolute = path?.contains("://") == true
                return request.url.path == wanted.path && (!absolute || request.url.origin == wanted.origin)
            }
            return true
        }
    }

    /// Cancels every running and queued cycle of the session; each caller hears of it, as with
    /// ``cancelCycles(method:path:)``.
    ///
    /// - Returns: how many cycles were cancelled.
    @discardableResult
    public func cancelAllCycles() -> Int {
        cancelCycles { _ in true }
    }

    /// Cancels the running cycles whose request satisfies `predicate`; each caller hears of it,
    /// as with ``cancelCycles(method:path:)``.
    ///
    /// - Returns: how many cycles were cancelled.
    @discardableResult
    public func cancelCycles(where predicate: (HTTPRequest) -> Bool) -> Int {
        let matching = activity.cycles.filter { predicate($0.request) }
        for cycle in matching { cycle.cancel(explicitly: false) }
        return matching.count
    }
}
