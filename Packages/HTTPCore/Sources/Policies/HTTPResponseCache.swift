import Foundation

/// A cache a session consults for its requests: ``HTTPSession/Configuration/cache``.
///
/// HTTPCore has no cache of its own — JewzCache's `HTTPCache` implements this — so a session
/// without one pays a `nil` check per exchange. The session asks it for every exchange of a
/// run (a redirect hop and a challenge's answer are exchanges of their own): below
/// authentication, retries and redirects, above cookies and the transport, where OkHttp's
/// cache interceptor sits. A response kept in memory goes through
/// ``response(for:session:network:)``; a download's or a stream's goes around a cache of yours
/// (JewzCache's stores those too, as they arrive). Resumed downloads and other `Range` requests
/// go around the cache.
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
}

/// Chooses, from a response's head, where a copy of its body goes as it arrives: a writer, or
/// `nil` for nowhere.
public typealias HTTPBodyKeeper = @Sendable (_ head: HTTPResponse) -> (any HTTPResponseBodyWriter)?

/// Receives a copy of a response body as it arrives, content codings undone: how a cache stores
/// a streamed body without holding it in memory.
///
/// The bytes count as a body only once ``finish()`` is called. A writer dropped without it —
/// the transfer failed, was cut short or was cancelled — must keep nothing of them as one;
/// ``fail()`` tells it first that what it wrote is the start of a body whose transfer broke.
public protocol HTTPResponseBodyWriter: AnyObject, Sendable {
    /// Appends the next bytes of the body. A writer that cannot keep them (its storage is full
    /// or failing) drops them quietly and keeps nothing: a cache's trouble never fails a
    /// request.
    func write(_ bytes: UnsafeRawBufferPointer)
    /// The body is whole: keep it.
    func finish()
    /// The transfer failed after the bytes written: they are the body's start, not the body.
    /// A cache may keep them as partial content; by default nothing is kept.
    func fail()
}

extension HTTPResponseBodyWriter {
    public func fail() {}
}

/// A cache that also answers downloads and streams, whose bodies are not kept in memory:
/// JewzCache's `HTTPCache`. A cache that is not one leaves such responses alone.
package protocol HTTPStreamingResponseCache: HTTPResponseCache {
    /// As ``response(for:session:network:)``, for a response whose body is not kept in memory:
    /// a download's, or one read with ``HTTPCycle/startStreaming()``.
    ///
    /// - Parameter network: sends a request and returns the response at its head, its body
    ///   still arriving in ``HTTPResponse/stream`` (a failing status's or a followed
    ///   redirect's body is in `data`, kept in memory as usual). The keeper it is given is
    ///   called with the head, and the body, content codings undone, is copied into the writer
    ///   it returns as the stream is read; the writer is finished at the body's end.
    /// - Returns: the response; when its ``HTTPResponse/source`` is not `.network`, its body —
    ///   ``HTTPFileResponse/bodyFile`` or the response's `data` — goes up the path as a stream.
    func streamedResponse(
        for request: HTTPRequest, session: HTTPSession,
        network: (HTTPRequest, _ keeper: @escaping HTTPBodyKeeper) async throws -> HTTPResponse
    ) async throws -> HTTPFileResponse
}

/// A response whose body may be in a file rather than in its ``HTTPResponse/data``: a stored
/// response a cache gives back for a download or a stream.
package struct HTTPFileResponse: Sendable {
    package var response: HTTPResponse
    /// The file holding the body from its first byte, `length` bytes long; `nil` when the body
    /// is the response's `data`.
    package var bodyFile: URL?
    package var length: Int

    package init(response: HTTPResponse, bodyFile: URL?, length: Int) {
        self.response = response
        self.bodyFile = bodyFile
        self.length = length
    }
}

/// Two copies of one body, written in turn.
final class BodyWriterPair: HTTPResponseBodyWriter {
    private let first: any HTTPResponseBodyWriter
    private let second: any HTTPResponseBodyWriter

    private init(_ first: any HTTPResponseBodyWriter, _ second: any HTTPResponseBodyWriter) {
        self.first = first
        self.second = second
    }

    /// A writer for both, either alone when the other is `nil`, or `nil`.
    static func joining(_ first: (any HTTPResponseBodyWriter)?, _ second: (any HTTPResponseBodyWriter)?) -> (any HTTPResponseBodyWriter)? {
        guard let first else { return second }
        guard let second else { return first }
        return BodyWriterPair(first, second)
    }

    func write(_ bytes: UnsafeRawBufferPointer) {
        first.write(bytes)
        second.write(bytes)
    }

    func finish() {
        first.finish()
        second.finish()
    }

    func fail() {
        first.fail()
        second.fail()
    }
}
