import JewzHTTPCore

/// Keeping a WebSocket open across lost connections.
extension HTTPSession {
    /// Keeps a WebSocket to `request`'s URL open: runs `body` with a socket, and when the
    /// connection ends or fails, opens a new one and runs `body` again, until `body` returns a
    /// value.
    ///
    /// `body` gets the socket and the connection's number (0 for the first): what it returns
    /// ends the whole; `nil` (its message loop ended with the server's close) asks for the next
    /// connection, as does a connection's failure (a ``WebSocketError`` from ``WebSocket/messages``).
    /// Between connections it waits ``WebSocketReconnection/initialDelay``, doubled after each
    /// failure to open in a row. A refusal the next attempt would meet again (a `4xx`, a bad URL)
    /// is thrown at once.
    ///
    /// ```swift
    /// let request = HTTPRequest(url: url)
    /// let stopRequested = false
    /// let stopped = try await session.withReconnectingWebSocket(request) { socket, connection in
    ///     try await socket.send(text: #"{"subscribe":"prices","resume":\(lastSequence)}"#)
    ///     for try await message in socket.messages { handle(message) }
    ///     return stopRequested ? true : nil
    /// }
    /// ```
    ///
    /// - Returns: the first value `body` returns.
    /// - Throws: the last failure after ``WebSocketReconnection/maximumFailures`` in a row, a
    ///   refusal, `CancellationError` when the task is cancelled, what `body` throws other than a
    ///   connection's failure.
    public func withReconnectingWebSocket<Result: Sendable>(
        _ request: HTTPRequest, options: WebSocketOptions = WebSocketOptions(), reconnection: WebSocketReconnection = WebSocketReconnection(),
        _ body: (WebSocket, _ connection: Int) async throws -> Result?
    ) async throws -> Result {
        var connection = 0
        var failures = 0
        while true {
            var opened = false
            do {
                let outcome = try await withWebSocket(request, options: options) { socket in
                    opened = true
                    return try await body(socket, connection)
                }
                if let outcome { return outcome }
            } catch {
                guard WebSocketReconnection.retries(after: error), opened || failures < reconnection.maximumFailures ?? .max else { throw error }
            }
            failures = opened ? 0 : failures + 1
            connection += opened ? 1 : 0
            let doubled = reconnection.initialDelay * (1 << min(max(failures - 1, 0), 20))
            try await Task.sleep(for: min(doubled, reconnection.maximumDelay))
        }
    }
}
