import Foundation
import JewzCache
import JewzHTTPCore

/// Downloads images and keeps them in memory and on disk, on Linux as anywhere.
///
/// - Memory: the images themselves, least recently used evicted first past a cost (bytes) or
///   count limit. A memory hit is served as it is, as Nuke and Kingfisher serve theirs.
/// - Disk: JewzCache's ``/JewzCache/DiskCacheStore`` through an ``/JewzCache/HTTPCache``, so RFC 9111 decides —
///   `no-store` is never stored, `max-age` is fresh for its time, and a stale image is
///   revalidated with `ETag`/`Last-Modified` (a `304` keeps the stored bytes).
/// - Downloads: one per key however many callers ask at once; a caller cancelled leaves alone,
///   the last one out cancels the download, and the download runs at its waiters' highest
///   priority.
///
/// - Decoded: what a decoder made of an image, by decoder and key, least recently used evicted
///   past ``Configuration-swift.struct/decodedCostLimit``: a hit runs no decoder.
///
/// Made from a configuration, it has a session of its own; made with ``init(session:configuration:)``,
/// it sends through an application's session — its middleware, credentials, tracing and
/// connection pool.
///
/// ```swift
/// let avatarURL = URL(string: "https://example.com/avatar.png")!
/// var configuration = ImageCache.Configuration()
/// configuration.directory = URL(fileURLWithPath: "Caches/images")
/// configuration.key = { url in url.absoluteString.components(separatedBy: "?").first ?? "" }
/// let images = try ImageCache(configuration: configuration)
/// let image = try await images.image(for: avatarURL)
/// if let size = image.pixelSize { print(image.format, size) }   // jpeg 256×256
/// ```
public final class ImageCache: Sendable {
    /// What an image cache keeps, where, and how it downloads: one value, documented setting by
    /// setting.
    public struct Configuration: Sendable {
        /// The most bytes of images kept in memory: 64 MiB.
        public var memoryCostLimit = 64 << 20
        /// The most images kept in memory.
        public var memoryCountLimit = 1_000
        /// The most bytes of decoders' outputs kept in memory (by ``ImageDecoder/cost(of:decodedFrom:)``): 128 MiB.
        public var decodedCostLimit = 128 << 20
        /// The most decoders' outputs kept in memory.
        public var decodedCountLimit = 1_000
        /// The disk cache's directory; `nil` keeps images in memory only.
        public var directory: URL?
        /// The most bytes the disk cache may hold: 256 MiB.
        public var diskSizeLimit = 256 << 20
        /// The most downloads at once; more wait by priority.
        public var maximumConcurrentDownloads = 6
        /// The session's settings (TLS, proxies, authentication, timeouts…); its cache and
        /// request limit are the image cache's. Not read by ``ImageCache/init(session:configuration:)``,
        /// which takes the given session's.
        public var session = HTTPSession.Configuration()
        /// The key an image is kept under: its URL by default. Give a function that drops
        /// what changes without changing the image — a signed URL's token — so that the same
        /// image under a fresh signature is a hit.
        public var key: @Sendable (URL) -> String = { $0.absoluteString }

        /// The defaults: memory only, 64 MiB of images, six downloads at once.
        public init() {}
    }

    /// The session images are downloaded with.
    public let session: HTTPSession
    /// The HTTP cache on disk, when there is a directory.
    public let diskCache: HTTPCache?
    let configuration: Configuration
    let memory: ImageMemoryCache<Image>
    /// Decoders' outputs, under `identifier + "\0" + key`.
    let decoded: ImageMemoryCache<any Sendable>
    /// The downloads in flight, one per key, shared by every caller of that key: a waiter that
    /// is cancelled leaves alone, the last one to leave cancels the download, and the download
    /// runs at the highest priority among its waiters.
    let downloads = SingleFlight<String, ImageResponse>()

    /// An image cache with a session of its own, made from ``Configuration-swift.struct/session``.
    ///
    /// - Throws: ``/JewzCache/CacheError`` when the disk cache's directory cannot be made, opened or locked.
    public convenience init(configuration: Configuration = .init()) throws {
        try self.init(configuration: configuration, sessionConfiguration: configuration.session, transport: nil)
    }

    /// An image cache that downloads through `session`: its middleware, authentications,
    /// tracing and transport (so its connections are shared), as it is configured now. The
    /// image cache keeps its own request limit and, with a ``Configuration-swift.struct/directory``,
    /// its own disk cache; without one, the session's cache (if any) is used. The transport
    /// stays `session`'s: shut `session` down when done, not the image cache's
    /// ``session``, whose shutdown would close the shared transport too.
    ///
    /// - Throws: as ``init(configuration:)``.
    public convenience init(session: HTTPSession, configuration: Configuration = .init()) throws {
        try self.init(configuration: configuration, sessionConfiguration: session.configuration, transport: session.transport)
    }

    private init(configuration: Configuration, sessionConfiguration base: HTTPSession.Configuration, transport: (any HTTPTransport)?) throws {
        self.configuration = configuration
        memory = ImageMemoryCache(costLimit: configuration.memoryCostLimit, countLimit: configuration.memoryCountLimit)
        decoded = ImageMemoryCache(costLimit: configuration.decodedCostLimit, countLimit: configuration.decodedCountLimit)
        let ownCache = try configuration.directory.map { directory in
            try HTTPCache(store: DiskCacheStore(directory: directory, sizeLimit: configuration.diskSizeLimit))
        }
        var sessionConfiguration = base
        if transport != nil {
            sessionConfiguration.customTransport = transport
            if let ownCache { sessionConfiguration.cache = ownCache }
        } else {
            sessionConfiguration.cache = ownCache
        }
        diskCache = sessionConfiguration.cache as? HTTPCache
        sessionConfiguration.maximumActiveRequests = max(1, configuration.maximumConcurrentDownloads)
        session = HTTPSession(configuration: sessionConfiguration)
    }

    // MARK: Images

    /// The image at `url`: from memory, else from the disk cache (revalidated when stale), else
    /// downloaded.
    ///
    /// - Throws: ``ImageError`` when the body is not an image (naming what it looks like),
    ///   `HTTPError` when the download fails (a status of 400 or more included),
    ///   `CancellationError` when the calling task is cancelled.
    public func image(for url: URL, priority: RequestPriority = .normal) async throws -> Image {
        try await response(for: url, priority: priority).image
    }

    /// As ``image(for:priority:)``, with where the image came from.
    public func response(for url: URL, priority: RequestPriority = .normal) async throws -> ImageResponse {
        let key = configuration.key(url)
        if let image = memory.image(forKey: key) { return ImageResponse(image: image, source: .memory, url: url) }
        return try await downloads.value(for: key, priority: priority) { [self] in
            let request = HTTPRequest(url: url)
            // The queue sends the download at its waiters' highest priority.
            let download = PendingCall()
            return .init(prioritize: { download.priority = $0 }) { [self, request] in
                let options = download.options(HTTPRequestOptions(responseProcessors: [], caching: .init(key: "GET " + key)))
                let response = try await session.send(request, options: options, vettedURL: nil, started: download.started)
                let image = try Image(data: response.data)
                memory.insert(image, forKey: key)
                return ImageResponse(image: image, source: Self.source(of: response), url: url)
            }
        }
    }

    /// The image at `url`, decoded by `decoder`: what the decoder made of it before, when memory
    /// still holds it (no download, no decoding), else the image as ``image(for:priority:)``
    /// gets it, decoded and kept.
    ///
    /// - Throws: as ``image(for:priority:)``, and what `decoder` throws.
    public func image<Decoder: ImageDecoder>(
        for url: URL, priority: RequestPriority = .normal, decoder: Decoder
    ) async throws -> Decoder.Output {
        let key = decoder.identifier + "\0" + configuration.key(url)
        if let output = decoded.value(forKey: key) as? Decoder.Output { return output }
        let image = try await image(for: url, priority: priority)
        let output = try await decoder.decode(image)
        decoded.insert(output, forKey: key, cost: decoder.cost(of: output, decodedFrom: image))
        return output
    }

    /// The image at `url` if memory holds it, without the disk or the network: for a caller
    /// that must not wait (drawing a list cell).
    public func memoryCachedImage(for url: URL) -> Image? {
        memory.image(forKey: configuration.key(url))
    }

    /// The image at `url` if memory or the disk holds it — fresh or not — without the network.
    /// The disk is read on the cache's threads, never the caller's or the cooperative pool's.
    public func cachedImage(for url: URL) async -> Image? {
        let key = configuration.key(url)
        if let image = memory.image(forKey: key) { return image }
        guard let diskCache else { return nil }
        let stored = await diskCache.onStore { diskCache.storedResponse(forKey: "GET " + key) }
        guard let stored, (200..<300).contains(stored.statusCode), let image = try? Image(data: stored.body) else { return nil }
        memory.insert(image, forKey: key)
        return image
    }

    /// Forgets the image at `url`, in memory (decoded ones too) and on disk.
    public func removeImage(for url: URL) {
        let key = configuration.key(url)
        memory.remove(forKey: key)
        decoded.remove { $0.hasSuffix("\0" + key) }
        diskCache?.store.removeResponse(forKey: "GET " + key)
    }

    /// Forgets every image, in memory (decoded ones too) and on disk.
    public func removeAll() {
        memory.removeAll()
        decoded.removeAll()
        diskCache?.removeAll()
    }

    /// Stops the download of `url`, if one is in flight: everyone waiting for it gets
    /// `CancellationError`.
    public func cancelDownload(for url: URL) {
        downloads.cancel(configuration.key(url))
    }

    /// Makes `url` answer `image` from memory, without the network, for tests and previews:
    /// ``Image/blank(width:height:red:green:blue:)`` makes one.
    /// Evicted like any other image; ``removeImage(for:)`` forgets it.
    public func setFake(_ image: Image, for url: URL) {
        memory.insert(image, forKey: configuration.key(url))
    }

    /// The bytes and the number of images in memory now.
    public var memoryUsage: (cost: Int, count: Int) { memory.usage }

    /// The cost and the number of decoders' outputs in memory now.
    public var decodedUsage: (cost: Int, count: Int) { decoded.usage }

    /// How many downloads are in flight now (each shared by all who asked for its image).
    public var downloadsInFlight: Int { downloads.count }

    /// Where an HTTP response came from, as an image source.
    private static func source(of response: HTTPResponse) -> ImageSource {
        switch response.source {
        case .cache, .stale: .disk
        case .revalidated: .revalidated
        default: .network
        }
    }
}
