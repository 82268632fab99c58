/// A step of a session's request path: it gets the request and the rest of the path (`next`),
/// and returns the response.
///
/// A middleware may change the request before it calls `next`, change or replace the response
/// it gets back, call `next` several times (to retry, to try another URL) or not at all (to
/// answer from somewhere else), or throw. The built-in features — retries, redirects,
/// authentication, the cache, cookies, coalescing, the queue and the transport — are
/// middleware too, in one order (see ARCHITECTURE.md); a session adds yours at two places:
///
/// - ``HTTPSession/Configuration/middleware``: around each whole call. It sees the request
///   once, as the caller made it, and the final response, after retries, redirects and
///   challenges.
/// - ``HTTPSession/Configuration/networkMiddleware``: around each exchange on the network. It
///   sees every attempt and every redirect hop as it goes on the wire, with credentials and
///   cookies, and is skipped when the cache answers.
///
/// ```swift
/// struct Signing: HTTPMiddleware {
///     let key: SymmetricKey
///     func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
///         var request = request
///         let body = try await request.collectBody(upTo: next.bodySizeLimit)
///         request.headers["X-Signature"] = signature(of: body, with: key)
///         return try await next(request)
///     }
/// }
/// try session.update { $0.networkMiddleware.append(Signing(key: SymmetricKey(size: .bits256))) }
/// ```
///
/// Every response has its body in ``HTTPResponse/body``: whole bytes, or, for one bound for a
/// download's file or the caller's reader, a stream still arriving. Read it, wrap it
/// (``HTTPResponseBody/map(_:)``) or replace it (``HTTPResponseBody/init(_:)-(Chunks)``),
/// whatever its kind, and the call puts what you hand on where the body goes. A response a middleware makes itself goes
/// there like one from the network.
public protocol HTTPMiddleware: Sendable {
    /// What `jewz -v` and the ``HTTPEvent/stageEntered(_:request:)`` event call this step.
    /// By default, the type's name.
    var name: String { get }

    /// Handles `request`, passing it on with `next` (or not), and returns the response.
    ///
    /// Runs where its caller runs (`nonisolated(nonsending)`), so that the built-in stages pass
    /// a request down without a hop to the global executor each; a witness of yours written as
    /// a plain `async` method still runs on the global executor (or on its actor), as before.
    ///
    /// - Throws: an ``HTTPError`` (from `next`, or one of your own) ends the call with it,
    ///   after the retry policy had its say when thrown below the retry stage; any other error
    ///   ends it with ``HTTPError/Code/middleware``, the error as its underlying one.
    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse
}

extension HTTPMiddleware {
    public var name: String { String(describing: Self.self) }
}
