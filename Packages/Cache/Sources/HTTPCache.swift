import Foundation
import JewzHTTPCore
import Synchronization

/// An HTTP cache for a session, by RFC 9111's rules for a private cache, in memory or on disk:
/// set it as the session's ``HTTPSession/Configuration/cache``.
///
/// A fresh stored response answers without the network; a stale one with validators is
/// revalidated with a conditional request (a `304` serves the stored body with the new
/// headers); `stale-while-revalidate` answers stale at once and revalidates in the background
/// (one revalidation per response, however many ask); `stale-if-error` answers stale when the
/// network fails or the server answers 500, 502, 503 or 504. Unsafe methods invalidate what is
/// stored for their URL. A request's ``HTTPRequest/caching`` chooses a policy, a lifetime
/// and a key of its own. Every response says where it came from (``HTTPResponse/source``).
///
/// ```swift
/// var configuration = HTTPSession.Configuration()
/// configuration.cache = try HTTPCache(directory: URL(fileURLWithPath: "Caches/api"))
/// let session = HTTPSession(configuration: configuration)
/// let first = try await HTTPCycle.get("https://api.example/items", session: session)
/// let again = try await HTTPCycle.get("https://api.example/items", session: session)
/// print(again.response?.source)  // .cache while the first is fresh
/// ```
public final class HTTPCache: HTTPResponseCache {
    public struct Configuration: Sendable {
        /// The methods whose responses are stored: GET and HEAD.
        public var storedMethods: Set<HTTPMethod> = [.get, .head]
        /// Whether a JSON response without explicit caching headers (`Cache-Control` with a
        /// lifetime or `Expires`) is stored. Off, as in PMHTTP: API data is then never
        /// served stale by a heuristic the server did not ask for.
        public var storesJSONWithoutCachingHeaders = false

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

    public let store: any CacheStore
    public let configuration: Configuration
    private let counters = Counters()
    /// Keys being revalidated in the background: one revalidation each.
    private let revalidating = Mutex<Set<String>>([])
    private let now: @Sendable () -> Date

    /// A cache in `store`.
    ///
    /// - Parameter now: the clock freshness is measured by (tests move it on).
    public init(store: any CacheStore = MemoryCacheStore(), configuration: Configuration = .init(), now: @escaping @Sendable () -> Date = Date.init) {
        self.store = store
        self.configuration = configuration
        self.now = now
    }

    /// A cache on disk in `directory` (made if missing), at most `sizeLimit` bytes.
    ///
    /// - Throws: ``CacheError`` when the directory cannot be made, opened or locked.
    public convenience init(directory: URL, sizeLimit: Int = 256 << 20, configuration: Configuration = .init()) throws {
        self.init(store: try DiskCacheStore(directory: directory, sizeLimit: sizeLimit), configuration: configuration)
    }

    public var statistics: Statistics { counters.snapshot }

    public func resetStatistics() {
        counters.reset()
    }

    /// Forgets every stored response.
    public func removeAll() {
        store.removeAll()
    }

    // MARK: Answering

    public func response(
        for request: HTTPRequest, session: HTTPSession, network: (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        let caching = request.caching
        guard configuration.storedMethods.contains(request.method) else {
            return try await sendUnsafe(request, network: network)
        }
        let key = caching.key ?? Self.key(method: request.method, url: request.url)
        let control = CacheControl(request.headers)
        if caching.policy == .reloadIgnoringCache || control.noStore {
            return try await fetch(request, key: key, stored: nil, control: control, network: network)
        }
        let stored = store.response(forKey: key).flatMap { Self.varyMatches($0, request) ? $0 : nil }
        let now = now()
        if caching.policy == .onlyIfCached || control.onlyIfCached {
            guard let stored else {
                counters.misses.add(1, ordering: .relaxed)
                return Self.notCached()
            }
            return hit(stored, source: isFresh(stored, at: now, control: control) ? .cache : .stale, at: now)
        }
        guard let stored else {
            counters.misses.add(1, ordering: .relaxed)
            return try await fetch(request, key: key, stored: nil, control: control, network: network)
        }
        let rules = stored.rules
        let age = rules.age(at: now)
        let staleness = age - rules.freshnessLifetime
        let mustAsk = rules.noCache || control.noCache || caching.policy == .revalidate
        if !mustAsk, isFresh(stored, at: now, control: control) { return hit(stored, source: .cache, at: now) }
        if !mustAsk, caching.policy == .returnCacheElseLoad { return hit(stored, source: .stale, at: now) }
        if !mustAsk, !rules.mustRevalidate {
            if let window = rules.staleWhileRevalidate, staleness <= window {
                revalidateInBackground(request, key: key, session: session)
                return hit(stored, source: .stale, at: now)
            }
            if let maxStale = control.maxStale, staleness <= Double(maxStale) { return hit(stored, source: .stale, at: now) }
        }
        counters.misses.add(1, ordering: .relaxed)
        return try await fetch(request, key: key, stored: stored, control: control, network: network)
    }

    /// A request the cache does not store (POST, PUT, DELETE…): sent as it is; a success
    /// invalidates what is stored for its URL and for the `Location` and `Content-Location`
    /// it names on the same origin (RFC 9111 §4.4).
    private func sendUnsafe(_ request: HTTPRequest, network: (HTTPRequest) async throws -> HTTPResponse) async throws -> HTTPResponse {
        counters.networkRequests.add(1, ordering: .relaxed)
        let response = try await network(request)
        let safe: Set<HTTPMethod> = [.get, .head, .options, .trace]
        guard !safe.contains(request.method), (200..<400).contains(response.statusCode) else { return response }
        var targets = [request.url]
        for name in ["Location", "Content-Location"] {
            if let value = response.headers[name], let url = URL(string: value, relativeTo: request.url)?.absoluteURL,
                url.scheme == request.url.scheme, url.host == request.url.host, url.port == request.url.port
            {
                targets.append(url)
            }
        }
        for url in targets {
            for method in configuration.storedMethods { store.removeResponse(forKey: Self.key(method: method, url: url)) }
        }
        return response
    }

    /// Sends `request` (made conditional when `stored` has validators and the request sets
    /// none of its own), stores what may be stored, and answers a `304` or a failure from
    /// `stored` where the rules allow.
    private func fetch(
        _ request: HTTPRequest, key: String, stored: CachedResponse?, control: CacheControl,
        network: (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        var outgoing = request
        var conditional = false
        if let stored, !request.headers.contains("If-None-Match"), !request.headers.contains("If-Modified-Since") {
            if let etag = stored.rules.etag { outgoing.headers["If-None-Match"] = etag }
            if let lastModified = stored.rules.lastModified { outgoing.headers["If-Modified-Since"] = lastModified }
            conditional = stored.rules.hasValidators
        }
        counters.networkRequests.add(1, ordering: .relaxed)
        let sent = now()
        let response: HTTPResponse
        do {
            response = try await network(outgoing)
        } catch {
            if let stored, let stale = staleForError(stored, control: control) { return stale }
            throw error
        }
        let received = now()
        if conditional, response.statusCode == 304, let stored {
            let updated = stored.revalidated(by: response.headers, requestDate: sent, responseDate: received)
            try? store.store(updated)
            counters.revalidations.add(1, ordering: .relaxed)
            counters.bytesSaved.add(updated.body.count, ordering: .relaxed)
            return updated.response(source: .revalidated, age: updated.rules.age(at: received))
        }
        if [500, 502, 503, 504].contains(response.statusCode), let stored, let stale = staleForError(stored, control: control) {
            return stale
        }
        if let entry = storable(response, for: request, key: key, control: control, requestDate: sent, responseDate: received) {
            try? store.store(entry)
        } else if stored != nil, response.statusCode != 304 {
            store.removeResponse(forKey: key)
        }
        return response
    }

    /// Revalidates `key` in a cycle of its own, unless one is already doing it.
    private func revalidateInBackground(_ request: HTTPRequest, key: String, session: HTTPSession) {
        guard revalidating.withLock({ $0.insert(key).inserted }) else { return }
        var background = request
        background.caching.policy = .revalidate
        background.appliesContentTypeProcessing = false
        let cycle = HTTPCycle(requestURL: background.url, requestMethod: background.method, session: session)
        cycle.request = background
        Task {
            _ = try? await cycle.start()
            self.revalidating.withLock { _ = $0.remove(key) }
        }
    }

    // MARK: Rules

    /// Whether `stored` may answer without the network at `now`: younger than its freshness
    /// lifetime, and within the request's `max-age` and `min-fresh` (RFC 9111 §4.2, §5.2.1).
    private func isFresh(_ stored: CachedResponse, at now: Date, control: CacheControl) -> Bool {
        let age = stored.rules.age(at: now)
        var lifetime = stored.rules.freshnessLifetime
        if let maxAge = control.maxAge { lifetime = min(lifetime, Double(maxAge)) }
        if let minFresh = control.minFresh { lifetime -= Double(minFresh) }
        return lifetime > age
    }

    /// `stored`, stale, when `stale-if-error` (the response's or the request's) still covers
    /// it and nothing demands revalidation.
    private func staleForError(_ stored: CachedResponse, control: CacheControl) -> HTTPResponse? {
        let now = now()
        guard !stored.rules.mustRevalidate, let window = control.staleIfError.map(Double.init) ?? stored.rules.staleIfError else {
            return nil
        }
        guard stored.rules.age(at: now) - stored.rules.freshnessLifetime <= window else { return nil }
        return hit(stored, source: .stale, at: now)
    }

    /// The entry to store for `response`, or `nil` when RFC 9111 §3 (or the request, or the
    /// JSON rule) says not to store it.
    private func storable(
        _ response: HTTPResponse, for request: HTTPRequest, key: String, control: CacheControl, requestDate: Date, responseDate: Date
    ) -> CachedResponse? {
        let lifetime = request.caching.lifetime
        if lifetime == .zero || control.noStore { return nil }
        guard (200...599).contains(response.statusCode), response.statusCode != 206, response.statusCode != 304 else { return nil }
        let vary = response.headers.tokens(for: "Vary")
        if vary.contains("*") { return nil }
        if lifetime == nil {
            let responseControl = CacheControl(response.headers)
            if responseControl.noStore { return nil }
            let explicit = responseControl.isExplicit || response.headers.contains("Expires")
            if !explicit, !configuration.storesJSONWithoutCachingHeaders, response.contentType.map({ $0.essence == "application/json" || $0.suffix == "json" }) == true { return nil }
            let hasLifetime = responseControl.maxAge != nil || response.headers.contains("Expires") || responseControl.isPublic
            guard hasLifetime || StoredRules.isHeuristicallyCacheable(response.statusCode) else { return nil }
        }
        var varying: [String: String] = [:]
        for name in vary { varying[name] = request.headers[name] }
        return CachedResponse(
            key: key, statusCode: response.statusCode, headers: response.headers, body: response.data, url: response.url,
            requestDate: requestDate, responseDate: responseDate, varyingFields: varying,
            lifetimeOverride: lifetime.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 })
    }

    private func hit(_ stored: CachedResponse, source: HTTPResponse.Source, at now: Date) -> HTTPResponse {
        counters.hits.add(1, ordering: .relaxed)
        counters.bytesSaved.add(stored.body.count, ordering: .relaxed)
        return stored.response(source: source, age: stored.rules.age(at: now))
    }


    /// The key a request is stored under: method and URL without its fragment.
    static func key(method: HTTPMethod, url: URL) -> String {
        let text = url.absoluteString
        // By byte: a search by Character costs more than the rest of a memory hit.
        guard let hash = text.utf8.firstIndex(of: UInt8(ascii: "#")) else { return method.rawValue + " " + text }
        return method.rawValue + " " + text[..<hash]
    }

    /// Whether `request` sends what the stored response's `Vary` names, as its request did.
    static func varyMatches(_ stored: CachedResponse, _ request: HTTPRequest) -> Bool {
        for name in stored.rules.varyNames where request.headers[name] != stored.varyingFields[name] {
            return false
        }
        return true
    }

    /// RFC 9111 §5.2.1.7's answer to `only-if-cached` when nothing is stored.
    static func notCached() -> HTTPResponse {
        var response = HTTPResponse(
            statusCode: 504, headers: ["Content-Type": "text/plain; charset=utf-8"],
            data: Data("Not in the cache, and the request allows only the cache (only-if-cached).".utf8))
        response.source = .cache
        return response
    }
}

/// The statistics as atomics: every hit counts, and a lock would make concurrent hits queue.
private final class Counters: Sendable {
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
