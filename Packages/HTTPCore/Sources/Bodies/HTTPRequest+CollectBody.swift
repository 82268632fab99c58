import Foundation

extension HTTPRequest {
    /// Reads the body into memory, for a middleware that needs its bytes (to sign it, say),
    /// and leaves the request sending those bytes: a file or segments body becomes `.data`,
    /// and so does a one-shot stream, which could not be read twice.
    ///
    /// ```swift
    /// let signing = HTTPClosureMiddleware("digest") { request, next in
    ///     var request = request
    ///     let body = try await request.collectBody(upTo: next.bodySizeLimit)
    ///     request.headers["X-Content-SHA256"] = hexDigest(of: body)
    ///     return try await next(request)
    /// }
    /// ```
    ///
    /// - Parameter limit: the most bytes to read; ``HTTPNext/bodySizeLimit`` is the session's.
    /// - Returns: the body's bytes (empty without a body).
    /// - Throws: ``HTTPError/Code/requestTooLarge`` past `limit` — before reading anything when
    ///   the length is known (the body is then left as it was; a stream of unknown length is
    ///   used up); ``HTTPError/Code/unreadableBody`` for a file that cannot be read;
    ///   ``HTTPError/Code/bodyNotReplayable`` for a stream already sent.
    public mutating func collectBody(upTo limit: Int) async throws -> Data {
        guard let body else { return Data() }
        if case .data(let data) = body {
            guard data.count <= limit else { throw HTTPError.requestTooLarge(limit: limit) }
            return data
        }
        if let length = body.knownLength, length > limit { throw HTTPError.requestTooLarge(limit: limit) }
        var collected = Data()
        for try await chunk in try body.chunks() {
            guard collected.count + chunk.count <= limit else { throw HTTPError.requestTooLarge(limit: limit) }
            collected.append(chunk)
        }
        self.body = .data(collected)
        return collected
    }
}
