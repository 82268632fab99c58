import JewzHTTPCore

/// Showing what the cache holds at once, then what the network says.
extension HTTPSession {
    /// "Cached now, then fresh": the response the session's cache holds for `request`, at
    /// once and even when stale, then the network's (a conditional request when the stored
    /// one has validators). Without a stored response only the network's comes.
    ///
    /// ```swift
    /// for try await response in session.responses(cachedThenFresh: request) {
    ///     show(response)  // .cache or .stale first, then .network or .revalidated
    /// }
    /// ```
    ///
    /// The sequence throws what the network request threw; the stored response, when there
    /// was one, has been delivered before. Ending the iteration cancels the request.
    public func responses(cachedThenFresh request: HTTPRequest) -> AsyncThrowingStream<HTTPResponse, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                if let stored = await storedResponse(for: request) { continuation.yield(stored) }
                do {
                    continuation.yield(try await send(request, policy: .revalidate))
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
        cachedThenFresh request: HTTPRequest, handler: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void
    ) -> Task<Void, Never> {
        Task {
            do {
                for try await response in responses(cachedThenFresh: request) { handler(.success(response)) }
            } catch {
                handler(.failure(error))
            }
        }
    }

    private func storedResponse(for request: HTTPRequest) async -> HTTPResponse? {
        guard configuration.cache != nil else { return nil }
        // Without a stored response, only-if-cached answers 504, which the status policy fails.
        return try? await send(request, policy: .onlyIfCached)
    }

    private func send(_ request: HTTPRequest, policy: HTTPRequestOptions.Caching.Policy) async throws -> HTTPResponse {
        try await send(request, options: HTTPRequestOptions(caching: .init(policy: policy)))
    }
}
