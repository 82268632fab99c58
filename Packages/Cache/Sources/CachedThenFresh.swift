import JewzHTTPCore

/// Showing what the cache holds at once, then what the network says.
extension HTTPSession {
    /// "Cached now, then fresh": the response the session's cache holds for `request`, at
    /// once and even when stale, then the network's (a conditional request when the stored
    /// one has validators). Without a stored response only the network's comes.
    ///
    /// ```swift
    /// let request = HTTPRequest(url: url)
    /// for try await response in session.responses(cachedThenFresh: request) {
    ///     show(response)  // .cache or .stale first, then .network or .revalidated
    /// }
    /// ```
    ///
    /// The sequence throws what the network request threw; the stored response, when there
    /// was one, has been delivered before. Ending the iteration cancels the request. The
    /// options' caching policy is replaced by these two; its key and lifetime are kept.
    public func responses(
        cachedThenFresh request: HTTPRequest, options: HTTPRequestOptions = HTTPRequestOptions()
    ) -> AsyncThrowingStream<HTTPResponse, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                if let stored = await storedResponse(for: request, options: options) { continuation.yield(stored) }
                do {
                    continuation.yield(try await send(request, options: options, policy: .revalidate))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// "Cached now, then fresh" with a handler, called with the stored response (when there
    /// is one), then with the network's response or its failure.
    ///
    /// - Returns: the task delivering them, to cancel.
    @discardableResult
    public func responses(
        cachedThenFresh request: HTTPRequest, options: HTTPRequestOptions = HTTPRequestOptions(),
        handler: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void
    ) -> Task<Void, Never> {
        Task {
            do {
                for try await response in responses(cachedThenFresh: request, options: options) { handler(.success(response)) }
            } catch {
                handler(.failure(error))
            }
        }
    }

    private func storedResponse(for request: HTTPRequest, options: HTTPRequestOptions) async -> HTTPResponse? {
        guard configuration.cache != nil else { return nil }
        // Without a stored response, only-if-cached answers 504, which the status policy fails.
        return try? await send(request, options: options, policy: .onlyIfCached)
    }

    private func send(_ request: HTTPRequest, options: HTTPRequestOptions, policy: HTTPRequestOptions.Caching.Policy) async throws -> HTTPResponse {
        var options = options
        options.caching.policy = policy
        return try await send(request, options: options)
    }
}
