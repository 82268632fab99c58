import Foundation

/// A cache a session consults for its requests: ``HTTPSession/Configuration/cache``.
///
/// HTTPCore has no cache of its own — JewzCache's `HTTPCache` implements this — so a session
/// without one pays a `nil` check per exchange. The session asks it for every exchange of a
/// run whose response is kept in memory (a redirect hop and a challenge's answer are exchanges
/// of their own): below authentication, retries and redirects, above cookies and the
/// transport, where OkHttp's cache interceptor sits. Downloads ask ``download(for:session:network:)``,
/// so that their bodies go from file to store and back without passing through memory;
/// streamed responses and resumed downloads (a `Range` request) go around the cache.
///
/// ```swift
/// var configuration = HTTPSession.Configuration()
/// configuration.cache = try HTTPCache(directory: cacheDirectory)
/// let session = HTTPSession(configuration: configuration)
/// ```
public protocol HTTPResponseCache: Sendable {
    /// Answers `request` from what the cache holds, from the network, or from both (a
    /// conditional request whose `304` revalidates a stored response).
    ///
    /// - Parameters:
    ///   - request: the request as it would go out, credentials included; its ``HTTPRequest/caching``
    ///     says what the caller allows.
    ///   - session: the session the request belongs to, for work the cache does after this
    ///     answer (a revalidation in the background).
    ///   - network: sends a request — `request`, or it with validators added — and returns
    ///     what came back, failing statuses included. Valid only during this call.
    /// - Returns: the response, its ``HTTPResponse/source`` saying where it came from.
    /// - Throws: what `network` threw, unless a stored response may stand in for it.
    func response(
        for request: HTTPRequest, session: HTTPSession, network: (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse

    /// As ``response(for:session:network:)``, for a download: a body that succeeded is in a
    /// file, both as `network` returns it and as the cache gives it back.
    ///
    /// - Parameter network: sends a request; the body of its answer is in
    ///   ``HTTPFileResponse/bodyFile`` (the download's own file, to be copied, not moved),
    ///   or in the response's `data` for a failing status or a redirect.
    /// - Returns: the response, with its body in a file the cycle copies into the download's
    ///   when its ``HTTPResponse/source`` is not `.network`.
    func download(
        for request: HTTPRequest, session: HTTPSession, network: (HTTPRequest) async throws -> HTTPFileResponse
    ) async throws -> HTTPFileResponse
}

extension HTTPResponseCache {
    /// Sends the request as it is: a cache that keeps bodies only in memory leaves downloads
    /// alone.
    public func download(
        for request: HTTPRequest, session: HTTPSession, network: (HTTPRequest) async throws -> HTTPFileResponse
    ) async throws -> HTTPFileResponse {
        try await network(request)
    }
}

/// A response whose body is in a file rather than in its ``HTTPResponse/data``: a download's,
/// on its way to or from a cache.
public struct HTTPFileResponse: Sendable {
    public var response: HTTPResponse
    /// The file holding the body from its first byte, `length` bytes long; `nil` when the body
    /// is the response's `data`.
    public var bodyFile: URL?
    public var length: Int

    public init(response: HTTPResponse, bodyFile: URL?, length: Int) {
        self.response = response
        self.bodyFile = bodyFile
        self.length = length
    }
}
