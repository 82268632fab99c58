import Foundation

/// A cache a session consults for its requests: ``HTTPSession/Configuration/cache``.
///
/// HTTPCore has no cache of its own — JewzCache's `HTTPCache` implements this — so a session
/// without one pays a `nil` check per exchange. The session asks it for every exchange of a
/// run (a redirect hop and a challenge's answer are exchanges of their own): below
/// authentication, retries and redirects, above cookies and the transport, where OkHttp's
/// cache interceptor sits. The body of what `network` returns is whole in ``HTTPResponse/body``
/// or, for a download or a stream, still arriving there: a cache stores the latter by wrapping
/// the stream (``HTTPResponseBody/map(_:)``) and handing the wrapped one up.
/// A `Range` request of a download or a stream (a resumed download's) goes around the cache.
///
/// ```swift
/// let cacheDirectory = URL(filePath: "Caches")
/// var configuration = HTTPSession.Configuration()
/// configuration.cache = try HTTPCache(directory: cacheDirectory)
/// let session = HTTPSession(configuration: configuration)
/// ```
public protocol HTTPResponseCache: Sendable {
    /// Answers `request` from what the cache holds, from the network, or from both (a
    /// conditional request whose `304` revalidates a stored response).
    ///
    /// - Parameters:
    ///   - request: the request as it would go out, credentials included.
    ///   - caching: what the call allows the cache to do (``HTTPRequestOptions/caching``).
    ///   - session: the session the request belongs to, for work the cache does after this
    ///     answer (a revalidation in the background).
    ///   - network: sends a request — `request`, or it with validators added — and returns
    ///     what came back, failing statuses included. Valid only during this call.
    /// - Returns: the response, its ``HTTPResponse/source`` saying where it came from; its body
    ///   in `data` or in `stream`, whichever the run asked for: the run puts it where it goes.
    /// - Throws: what `network` threw, unless a stored response may stand in for it.
    func response(
        for request: HTTPRequest, caching: HTTPRequestOptions.Caching, session: HTTPSession, network: (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse
}
