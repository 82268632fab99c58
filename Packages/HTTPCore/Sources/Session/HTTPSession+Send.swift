import Foundation

extension HTTPSession {
    /// Sends `request` along the session's request path — its middleware, cookies, cache,
    /// authentications, queue, redirects and retries, then the response processors — and
    /// returns the processed response, its body whole in memory.
    ///
    /// The core of the toolkit, with its two siblings that return the body otherwise:
    /// ``stream(_:options:)`` as it arrives, ``download(_:to:resumingFrom:options:didWriteData:)``
    /// into a file. A ``HTTPCycle`` and the one-call forms are made of them. A call keeps no
    /// state: cancelling the calling task cancels it, and so do the session's
    /// ``cancelCalls(where:)`` and ``cancelAllCalls()``.
    ///
    /// ```swift
    /// let key = "3f2c"
    /// let order = ["item": "book"]
    /// var request = HTTPRequest(url: url, method: .post, object: order)
    /// request.headers["Idempotency-Key"] = key
    /// let response = try await session.send(request, options: .init(retryPolicy: .never))
    /// ```
    ///
    /// - Parameters:
    ///   - request: what to send; the session's processors, headers and credentials are added.
    ///   - options: what this call uses instead of the session's settings.
    /// - Returns: the processed response: its body whole in ``HTTPResponse/data`` (up to the
    ///   session's ``HTTPSession/Configuration-swift.struct/maximumResponseBodySize``) and its
    ///   processed form in ``HTTPResponse/object``.
    /// - Throws: ``HTTPError``: ``HTTPError/Code/invalidURL`` or ``HTTPError/Code/invalidHeader``
    ///   before anything is sent; ``HTTPError/Code/statusCode`` with the response when its
    ///   status counts as a failure; ``HTTPError/Code/cancelled`` when the task or the call is
    ///   cancelled; ``HTTPError/Code/responseTooLarge`` for a body past the session's limit;
    ///   network, processor and authentication errors otherwise.
    public func send(_ request: HTTPRequest, options: HTTPRequestOptions = HTTPRequestOptions()) async throws -> HTTPResponse {
        try await HTTPCall(session: self, settings: RunSettings(request: request, options: options), vettedURL: nil).execute()
    }

    /// As ``send(_:options:)``, for a request whose URL the caller checked already
    /// (``Foundation/URL/isSendableHTTP``), returning the body as `delivery` says, and handing
    /// the call to `started` before it runs: how the modules above keep a call to reprioritize
    /// or cancel it.
    package func send(
        _ request: consuming HTTPRequest, options: consuming HTTPRequestOptions, delivery: ResponseDelivery = .memory, vettedURL: URL?,
        started: ((HTTPCall) -> Void)? = nil
    ) async throws -> HTTPResponse {
        let call = HTTPCall(session: self, settings: RunSettings(request: request, options: options, delivery: delivery), vettedURL: vettedURL)
        started?(call)
        return try await call.execute()
    }

    /// As ``send(_:options:)``, with every exchange of the call going over `transport` rather
    /// than the session's: how a module sends a request whose connection outlives its response
    /// (a WebSocket's opening handshake) along the session's path.
    package func send(_ request: HTTPRequest, options: HTTPRequestOptions, over transport: any HTTPTransport) async throws -> HTTPResponse {
        let call = HTTPCall(
            session: self, settings: RunSettings(request: request, options: options), vettedURL: nil, ownTransport: Boxed(transport))
        return try await call.execute()
    }
}
