extension HTTPSession {
    /// Sends `request` along the session's request path — its middleware, cookies, cache,
    /// authentications, queue, redirects and retries, then the response processors — and
    /// returns the processed response.
    ///
    /// It keeps no state: nothing to restart, and the calling task's cancellation cancels it.
    /// A ``HTTPCycle`` runs the same path, and adds what needs an object to hold: restarting,
    /// cancelling from elsewhere, completion handlers, progress, downloads.
    ///
    /// ```swift
    /// var request = HTTPRequest(url: url, method: .post, object: order)
    /// request.headers["Idempotency-Key"] = key
    /// let response = try await session.send(request, options: .init(retryPolicy: .never))
    /// ```
    ///
    /// - Parameter options: what this request uses instead of the session's settings.
    /// - Returns: the processed response; its body is in ``HTTPResponse/data``, its processed
    ///   form in ``HTTPResponse/object``.
    /// - Throws: ``HTTPError``: ``HTTPError/Code/invalidURL`` or ``HTTPError/Code/invalidHeader``
    ///   before anything is sent; ``HTTPError/Code/statusCode`` with the response when its
    ///   status counts as a failure; ``HTTPError/Code/cancelled`` when the task is cancelled;
    ///   network, processor and authentication errors otherwise.
    public func send(_ request: HTTPRequest, options: HTTPRequestOptions = HTTPRequestOptions()) async throws -> HTTPResponse {
        guard !hasEventMonitors.load(ordering: .acquiring) else {
            // Monitors hear of each request with the cycle it runs as.
            return try await HTTPCycle(request: request, options: options, session: self).start()
        }
        let run = RequestRun(
            session: self, cycle: nil, generation: 0, settings: RunSettings(request: request, options: options), vettedURL: nil,
            channel: nil)
        return try await run.execute { $0 }
    }

    /// As ``send(_:options:)``, with every exchange of the run going over `transport` rather
    /// than the session's: how a module sends a request whose connection outlives its response
    /// (a WebSocket's opening handshake) along the session's path. Monitors do not hear of it.
    package func send(_ request: HTTPRequest, options: HTTPRequestOptions, over transport: any HTTPTransport) async throws -> HTTPResponse {
        let run = RequestRun(
            session: self, cycle: nil, generation: 0, settings: RunSettings(request: request, options: options), vettedURL: nil,
            channel: nil, ownTransport: Boxed(transport))
        return try await run.execute { $0 }
    }
}
