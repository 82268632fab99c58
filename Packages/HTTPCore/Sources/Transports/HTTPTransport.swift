import Foundation

/// Moves a prepared request over the wire and hands the response to a receiver as it arrives:
/// the head once, then the body chunk by chunk, still content-encoded. The session owns one;
/// ``AsyncHTTPClientTransport`` is the default, `URLSessionTransport` (JewzURLSession) the alternative.
///
/// A transport reports failures as ``HTTPError`` values: ``HTTPError/Code/connectionFailed``
/// only when the server cannot have seen the request, ``HTTPError/Code/timedOut`` for timeouts, and
/// ``HTTPError/Code/cancelled`` when the calling task was cancelled. An error thrown by
/// the receiver ends the exchange and is rethrown unchanged.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and delivers the response to `receiver`, where its caller runs
    /// (`nonisolated(nonsending)`): the receiver is the caller's state, and the path's last
    /// stage calls this without a hop.
    ///
    /// - Parameters:
    ///   - request: the request as the session prepared it, headers and body complete.
    ///   - timeout: the longest the whole exchange may take; `nil` for no limit.
    ///   - onBodySent: called with the size of each piece of the request body once the
    ///     transport has handed it to the connection, serially; the sizes add up to the body's
    ///     length when the whole body went out.
    ///   - receiver: takes the head, then the body chunk by chunk.
    /// - Throws: ``HTTPError``.
    nonisolated(nonsending) func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?,
        to receiver: inout some HTTPResponseReceiver
    ) async throws

    /// Releases connections and threads. Requests sent afterwards fail with
    /// ``HTTPError/Code/sessionShutDown``.
    func shutdown() async throws
}

/// Takes a response as a transport delivers it.
public protocol HTTPResponseReceiver {
    /// The status line and headers, before any body byte.
    mutating func receiveHead(statusCode: Int, headers: HTTPHeaderFields, url: URL?) throws
    /// The protocol version of the response, before its head, when the transport knows it.
    mutating func receiveVersion(_ version: HTTPVersion)
    /// The next piece of the body; the memory is valid only during the call.
    mutating func receiveBody(_ chunk: UnsafeRawBufferPointer) throws
    /// Returns when the receiver can take more body. Transports call it after each piece, so
    /// a consumer that reads slowly slows the connection down instead of filling memory.
    nonisolated(nonsending) mutating func waitForDemand() async throws
    /// Called once the exchange is under way, before the head, with what stops it: a receiver
    /// whose exchange may be cancelled from elsewhere (a session cancelling its cycles) keeps it.
    mutating func exchangeDidStart(_ exchange: any HTTPExchangeCancelling)
}

/// Stops an exchange in flight from any thread; its transport's `send` then throws
/// ``HTTPError/Code/cancelled``.
public protocol HTTPExchangeCancelling: AnyObject, Sendable {
    /// Stops the exchange; calling it again, or after the exchange ended, does nothing.
    func cancel()
}

extension HTTPResponseReceiver {
    /// Returns at once: a receiver that keeps up with the connection needs no pacing.
    nonisolated(nonsending) public mutating func waitForDemand() async throws {}

    /// Ignores the version.
    public mutating func receiveVersion(_ version: HTTPVersion) {}

    /// Keeps nothing: the exchange stops only when the calling task is cancelled.
    public mutating func exchangeDidStart(_ exchange: any HTTPExchangeCancelling) {}
}
