import Foundation

/// Moves a prepared request over the wire and hands the response to a receiver as it arrives:
/// the head once, then the body chunk by chunk, still content-encoded. The session owns one;
/// ``AsyncHTTPClientTransport`` is the default.
///
/// A transport reports failures as ``HTTPError`` values: ``HTTPError/connectionFailed(reason:)``
/// only when the server cannot have seen the request, ``HTTPError/timedOut`` for timeouts, and
/// ``HTTPError/cancelled(explicitly:)`` when the calling task was cancelled. An error thrown by
/// the receiver ends the exchange and is rethrown unchanged.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and delivers the response to `receiver`.
    ///
    /// - Parameter timeout: the longest the whole exchange may take; `nil` for no limit.
    /// - Throws: ``HTTPError``.
    func send(_ request: HTTPRequest, timeout: Duration?, to receiver: inout some HTTPResponseReceiver) async throws

    /// Releases connections and threads. Requests sent afterwards fail with
    /// ``HTTPError/sessionShutDown``.
    func shutdown() async throws
}

/// Takes a response as a transport delivers it.
public protocol HTTPResponseReceiver {
    /// The status line and headers, before any body byte.
    mutating func receiveHead(statusCode: Int, headers: HTTPHeaderFields, url: URL?) throws
    /// The next piece of the body; the memory is valid only during the call.
    mutating func receiveBody(_ chunk: UnsafeRawBufferPointer) throws
}
