/// Moves a prepared request over the wire and brings back the response, body still
/// content-encoded. The session owns one; ``AsyncHTTPClientTransport`` is the default.
///
/// A transport reports failures as ``HTTPError`` values: ``HTTPError/connectionFailed(reason:)``
/// only when the server cannot have seen the request, ``HTTPError/timedOut`` for timeouts, and
/// ``HTTPError/cancelled(explicitly:)`` when the calling task was cancelled.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the complete response.
    ///
    /// - Parameter timeout: the longest the whole exchange may take; `nil` for no limit.
    /// - Throws: ``HTTPError``.
    func send(_ request: HTTPRequest, timeout: Duration?) async throws -> HTTPResponse

    /// Releases connections and threads. Requests sent afterwards fail with
    /// ``HTTPError/sessionShutDown``.
    func shutdown() async throws
}
