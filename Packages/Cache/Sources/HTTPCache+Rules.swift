import Foundation
import JewzHTTPCore

// RFC 9111's rules as the cache applies them: freshness, stale answers, what may be stored,
// keys and Vary.
extension HTTPCache {
    /// Whether `stored` may answer without the network at `now`: younger than its freshness
    /// lifetime, and within the request's `max-age` and `min-fresh` (RFC 9111 §4.2, §5.2.1).
    func isFresh(_ stored: CachedResponse, at now: Date, control: CacheControl) -> Bool {
        let age = stored.rules.age(at: now)
        var lifetime = stored.rules.freshnessLifetime(shared: configuration.isShared)
        if let maxAge = control.maxAge { lifetime = min(lifetime, Double(maxAge)) }
        if let minFresh = control.minFresh { lifetime -= Double(minFresh) }
        return lifetime > age
    }

    /// `stored`, stale, when `stale-if-error` (the response's or the request's) still covers
    /// it and nothing demands revalidation.
    func staleForError(_ stored: CachedResponse, control: CacheControl) -> CacheAnswer? {
        let now = now()
        guard !stored.rules.mustRevalidate(shared: configuration.isShared), let window = control.staleIfError.map(Double.init) ?? stored.rules.staleIfError else {
            return nil
        }
        guard stored.rules.age(at: now) - stored.rules.freshnessLifetime(shared: configuration.isShared) <= window else { return nil }
        return hit(stored, source: .stale, at: now)
    }

    /// The entry to store for `response`, or `nil` when RFC 9111 §3 (or the request, or the
    /// JSON rule) says not to store it.
    ///
    /// - Parameter partial: the response is a `206` kept to complete later (RFC 9111 §3.3):
    ///   stored without a lifetime of its own, since the origin validates the rest.
    func storable(
        _ response: HTTPResponse, for request: HTTPRequest, key: String, control: CacheControl, requestDate: Date, responseDate: Date,
        partial: Bool = false
    ) -> CachedResponse? {
        let lifetime = request.caching.lifetime
        if lifetime == .zero || control.noStore { return nil }
        guard (200...599).contains(response.statusCode), response.statusCode != 206 || partial, response.statusCode != 304 else { return nil }
        let vary = response.headers.tokens(for: "Vary")
        if vary.contains("*") { return nil }
        let responseControl = CacheControl(response.headers)
        if configuration.isShared, !Self.sharable(response: responseControl, request: request) { return nil }
        if responseControl.mustUnderstand, !Self.understands(response.statusCode) { return nil }
        if lifetime == nil {
            if responseControl.noStore, !responseControl.mustUnderstand { return nil }
            let explicit = responseControl.isExplicit || response.headers.contains("Expires")
            if !explicit, !configuration.storesJSONWithoutCachingHeaders, response.contentType.map({ $0.essence == "application/json" || $0.suffix == "json" }) == true { return nil }
            let hasLifetime = responseControl.maxAge != nil || response.headers.contains("Expires") || responseControl.isPublic
                || (configuration.isShared && responseControl.sharedMaxAge != nil)
            guard hasLifetime || partial || StoredRules.isHeuristicallyCacheable(response.statusCode) else { return nil }
        }
        var varying: [String: String] = [:]
        for name in vary { varying[name] = SelectingHeader.normalized(request.headers[name], for: name) }
        var headers = Self.storedHeaders(response.headers)
        if configuration.isShared { for name in responseControl.privateFields { headers.remove(name) } }
        return CachedResponse(
            key: key, statusCode: response.statusCode, headers: headers, body: response.data, url: response.url,
            requestDate: requestDate, responseDate: responseDate, varyingFields: varying,
            lifetimeOverride: lifetime.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 })
    }

    /// Whether the cache knows the caching rules of `statusCode`, as `must-understand` asks:
    /// the final statuses RFC 9110 defines, but 206, which it does not store.
    static func understands(_ statusCode: Int) -> Bool {
        switch statusCode {
        case 200...205, 300...305, 307, 308, 400...417, 421, 422, 426, 500...505: true
        default: false
        }
    }

    /// Whether a shared cache may store a response with `response`'s directives for
    /// `request`: not one marked `private` (unless only some fields are, which are left out),
    /// and one to a request with `Authorization` only when `public`, `must-revalidate` or
    /// `s-maxage` allows it (§3.5), since it would answer other users.
    static func sharable(response: CacheControl, request: HTTPRequest) -> Bool {
        if response.isPrivate, response.privateFields.isEmpty { return false }
        if request.headers.contains("Authorization") {
            return response.isPublic || response.mustRevalidate || response.sharedMaxAge != nil
        }
        return true
    }

    /// The headers a cache keeps (§3.1): without `Connection`, the fields it names, and the
    /// other hop-by-hop fields, which describe one connection, not the resource.
    static func storedHeaders(_ headers: HTTPHeaderFields) -> HTTPHeaderFields {
        let named = Set(headers.tokens(for: "Connection"))
        let hopByHop: Set<String> = ["connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade"]
        guard headers.fields.contains(where: { hopByHop.contains($0.name.lowercased()) || named.contains($0.name.lowercased()) }) else {
            return headers
        }
        return HTTPHeaderFields(
            headers.fields.filter { !hopByHop.contains($0.name.lowercased()) && !named.contains($0.name.lowercased()) }.map { ($0.name, $0.value) })
    }

    func hit(_ stored: CachedResponse, source: HTTPResponse.Source, at now: Date) -> CacheAnswer {
        counters.hits.add(1, ordering: .relaxed)
        counters.bytesSaved.add(stored.bodyLength, ordering: .relaxed)
        return stored.answer(source: source, age: stored.rules.age(at: now))
    }


    /// The key a request is stored under: method and URL without its fragment.
    static func key(method: HTTPMethod, url: URL) -> String {
        var text = url.absoluteString
        // Over the contiguous bytes: a search by Character, or through the UTF-8 view's
        // indices, costs more than the rest of a memory hit.
        guard let hash = text.withUTF8({ $0.firstIndex(of: UInt8(ascii: "#")) }) else { return method.rawValue + " " + text }
        return method.rawValue + " " + String(decoding: text.utf8.prefix(hash), as: UTF8.self)
    }

    /// Whether `request` sends what the stored response's `Vary` names, as its request did,
    /// compared normalised (``SelectingHeader``). With `acceptingContentLanguage`, an
    /// `Accept-Language` whose first choice is the stored `Content-Language` matches too.
    static func varyMatches(_ stored: CachedResponse, _ request: HTTPRequest, acceptingContentLanguage: Bool = false) -> Bool {
        for name in stored.rules.varyNames {
            let sent = request.headers[name]
            if SelectingHeader.normalized(sent, for: name) == stored.varyingFields[name] { continue }
            if acceptingContentLanguage, name.lowercased() == "accept-language", let sent,
                let language = stored.headers["Content-Language"],
                SelectingHeader.satisfies(contentLanguage: language, acceptLanguage: sent)
            {
                continue
            }
            return false
        }
        return true
    }

    /// RFC 9111 §5.2.1.7's answer to `only-if-cached` when nothing is stored.
    static func notCached() -> HTTPResponse {
        var response = HTTPResponse(statusCode: 504, headers: ["Content-Type": "text/plain; charset=utf-8"], body: HTTPResponseBody(Data("Not in the cache, and the request allows only the cache (only-if-cached).".utf8)))
        response.source = .cache
        return response
    }
}
