import Foundation
import JewzHTTPCore
import JewzLocking
import struct Synchronization.Atomic

/// An HTTP cache for a session, by RFC 9111's rules for a private cache (or a shared one:
/// ``Configuration-swift.struct/isShared``), in memory or on disk: set it as the session's
/// ``/JewzHTTPCore/HTTPSession/Configuration/cache``.
///
/// A fresh stored response answers without the network; a stale one with validators is
/// revalidated with a conditional request (a `304` serves the stored body with the new
/// headers); `stale-while-revalidate` answers stale at once and revalidates in the background
/// (one revalidation per response, however many ask); `stale-if-error` answers stale when the
/// network fails or the server answers 500, 502, 503 or 504. Unsafe methods invalidate what is
/// stored for their URL. A call's ``/JewzHTTPCore/HTTPRequestOptions/caching`` chooses a policy, a lifetime
/// and a key of its own. Every response says where it came from (``/JewzHTTPCore/HTTPResponse/source``).
///
/// ```swift
/// var configuration = HTTPSession.Configuration()
/// configuration.cache = try HTTPCache(directory: URL(fileURLWithPath: "Caches/api"))
/// let session = HTTPSession(configuration: configuration)
/// let first = try await HTTPCycle.get("https://api.example/items", session: session)
/// let again = try await HTTPCycle.get("https://api.example/items", session: session)
/// print(again.source)  // .cache while the first is fresh
/// ```
public final class HTTPCache: HTTPResponseCache {
    /// What the cache stores and how it answers.
    public struct Configuration: Sendable {
        /// The methods whose responses are stored: GET and HEAD.
        public var storedMethods: Set<HTTPMethod> = [.get, .head]
        /// Whether a JSON response without explicit caching headers (`Cache-Control` with a
        /// lifetime or `Expires`) is stored. Off by default: API data is then never
        /// served stale by a heuristic the server did not ask for.
        public var storesJSONWithoutCachingHeaders = false
        /// How many variants of one URL (responses with `Vary`, for different values of the
        /// fields it names) are kept side by side; the least recently stored goes first.
        public var maximumVariantsPerURL = 4
        /// Whether the cache is shared by several users (a proxy's, a gateway's), with RFC 9111's
        /// rules for shared caches: `s-maxage` over `max-age`, `proxy-revalidate` heeded, a
        /// `private` response not stored (a `private="Field"` one stored without the field), and
        /// a response to a request with `Authorization` stored only when `public`,
        /// `must-revalidate` or `s-maxage` says it may be (§3.5). Off: the cache is private,
        /// one user's, as a client's is.
        public var isShared = false

        /// The defaults: RFC 9111's rules for a private cache.
        public init() {}
    }

    /// What the cache has done since it was made (or ``resetStatistics()``).
    public struct Statistics: Sendable, Hashable {
        /// Requests answered from the store without the network (fresh, or stale as allowed).
        public var hits = 0
        /// Requests the store could not answer.
        public var misses = 0
        /// Stored responses the server confirmed with `304`.
        public var revalidations = 0
        /// Requests sent on the network, conditional and background ones included.
        public var networkRequests = 0
        /// Body bytes given from the store rather than received.
        public var bytesSaved = 0
    }

    /// Where the responses are kept.
    public let store: any CacheStore
    /// What is stored, beyond RFC 9111's rules.
    public let configuration: Configuration
    let counters = Counters()
    /// The revalidations in the background, one per key however many ask.
    let revalidations = SingleFlight<String, Void>()
    /// The variant keys stored for each URL's key, oldest first (``noteVariant(_:of:)``).
    let variants = Mutex<[String: [String]]>([:])
    let now: @Sendable () -> Date
    /// Where the store's work waits when the store waits on files (``CacheStore/performsBlockingIO``,
    /// read once): threads of the cache's own, since a disk store may wait as long as another
    /// process holds its directory's lock. `nil` for a store in memory.
    let storeThreads: BlockingThreads?
    /// The store, when it is this module's disk store, whose reads can avoid the thread pool.
    let diskStore: DiskCacheStore?

    /// A cache in `store`.
    ///
    /// - Parameters:
    ///   - store: where entries live: in memory (the default) or a `DiskCacheStore`.
    ///   - configuration: what is stored beyond RFC 9111's rules (sizes, private responses).
    ///   - now: the clock freshness is measured by (tests move it on).
    public init(store: any CacheStore = MemoryCacheStore(), configuration: Configuration = .init(), now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        storeThreads = store.performsBlockingIO ? BlockingThreads(count: max(2, ProcessInfo.processInfo.activeProcessorCount)) : nil
        diskStore = store as? DiskCacheStore
        self.configuration = configuration
        self.now = now
    }

    /// A cache on disk in `directory` (made if missing), at most `sizeLimit` bytes.
    ///
    /// - Throws: ``CacheError`` when the directory cannot be made, opened or locked.
    public convenience init(directory: URL, sizeLimit: Int = 256 << 20, configuration: Configuration = .init()) throws {
        self.init(store: try DiskCacheStore(directory: directory, sizeLimit: sizeLimit), configuration: configuration)
    }

    /// What the cache has done so far.
    public var statistics: Statistics { counters.snapshot }

    /// Counts from zero again.
    public func resetStatistics() {
        counters.reset()
    }

    /// Forgets every stored response. With a store on disk this waits on its files: call it
    /// where a thread may wait, not from a task.
    public func removeAll() {
        store.removeAll()
    }

    // MARK: Answering

    /// Answers `request` by RFC 9111's rules. A body the network sends in a stream (a
    /// download's, a reader's) goes into the store as it is read, and a stored body a store
    /// keeps in a file goes up as a stream read from it: a large body is never held in memory
    /// (with a ``DiskCacheStore``; ``MemoryCacheStore`` keeps only streamed bodies up to 8 MiB).
    public func response(
        for request: HTTPRequest, caching: HTTPRequestOptions.Caching, session: HTTPSession,
        network: (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var request = request
        request.caching = caching
        return try await answer(request, session: session, network: network).sessionResponse()
    }

    // MARK: The store's thread

    /// `work` on the store: on the cache's threads when the store waits on files, at once when
    /// it works in memory.
    @inline(__always)
    package func onStore<Value: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> Value) async throws(Failure) -> Value {
        guard let storeThreads else { return try work() }
        return try await BlockingIO.run(on: storeThreads, work)
    }

    /// Starts `work` on the store without waiting for it, where nothing can wait (a body that
    /// failed or was dropped): on the cache's threads, or at once for a store in memory.
    func onStoreLater(_ work: @escaping @Sendable () -> Void) {
        if let storeThreads { BlockingIO.start(on: storeThreads, work) } else { work() }
    }
}

/// The statistics as atomics: every hit counts, and a lock would make concurrent hits queue.
final class Counters: Sendable {
    let hits = Atomic(0)
    let misses = Atomic(0)
    let revalidations = Atomic(0)
    let networkRequests = Atomic(0)
    let bytesSaved = Atomic(0)

    var snapshot: HTTPCache.Statistics {
        var statistics = HTTPCache.Statistics()
        statistics.hits = hits.load(ordering: .relaxed)
        statistics.misses = misses.load(ordering: .relaxed)
        statistics.revalidations = revalidations.load(ordering: .relaxed)
        statistics.networkRequests = networkRequests.load(ordering: .relaxed)
        statistics.bytesSaved = bytesSaved.load(ordering: .relaxed)
        return statistics
    }

    func reset() {
        hits.store(0, ordering: .relaxed)
        misses.store(0, ordering: .relaxed)
        revalidations.store(0, ordering: .relaxed)
        networkRequests.store(0, ordering: .relaxed)
        bytesSaved.store(0, ordering: .relaxed)
    }
}
