import Foundation
import JewzHTTPCore
import Synchronization

// How the cache answers: from the store, from the network, or both, by RFC 9111's rules. A
// body is in memory or in a stream, as the run wants it; a stream is stored as it is read.
extension HTTPCache {
    /// Sends a request through the stages below; the body comes back in `data` or `stream`.
    typealias Network = (HTTPRequest) async throws -> HTTPResponse

    /// The answer to `request` by RFC 9111's rules; a range of a stored body when the request
    /// asks for one (``ranged(_:for:)``).
    func answer(_ request: HTTPRequest, session: HTTPSession, network: Network) async throws -> CacheAnswer {
        let answer = try await answerWhole(request, session: session, network: network)
        guard request.headers.contains("Range") else { return answer }
        return await ranged(answer, for: request)
    }

    /// The answer to `request` as if it asked for the whole body. Inlined, so that a memory
    /// hit stays one async frame.
    @inline(__always)
    private func answerWhole(_ request: HTTPRequest, session: HTTPSession, network: Network) async throws -> CacheAnswer {
        let caching = request.caching
        guard configuration.storedMethods.contains(request.method) else {
            return try await sendUnsafe(request, network: network)
        }
        let key = caching.key ?? Self.key(method: request.method, url: request.url)
        let control = CacheControl(request.headers)
        if caching.policy == .reloadIgnoringCache || control.noStore {
            return try await fetch(request, key: key, stored: nil, control: control, network: network)
        }
        let stored = storeThreads != nil ? await lookupOnStore(key, for: request) : lookup(key, for: request)
        let now = now()
        if caching.policy == .onlyIfCached || control.onlyIfCached {
            guard let stored else {
                counters.misses.add(1, ordering: .relaxed)
                let response = Self.notCached()
                return CacheAnswer(response: response)
            }
            return hit(stored, source: isFresh(stored, at: now, control: control) ? .cache : .stale, at: now)
        }
        guard let stored else {
            counters.misses.add(1, ordering: .relaxed)
            if let piece = await onStore({ self.partialAnswer(to: request, key: key, control: control) }) { return piece }
            if let whole = try await completePartial(request, key: key, control: control, network: network) {
                guard let entry = storable(whole, for: request, key: key, control: control, requestDate: now, responseDate: self.now()) else {
                    return CacheAnswer(response: whole)
                }
                return CacheAnswer(response: await storing(whole, as: entry, for: request, control: control, sent: now))
            }
            return try await fetch(request, key: key, stored: nil, control: control, network: network)
        }
        let rules = stored.rules
        let age = rules.age(at: now)
        let staleness = age - rules.freshnessLifetime(shared: configuration.isShared)
        let mustAsk = rules.noCache || control.noCache || caching.policy == .revalidate
        if !mustAsk, isFresh(stored, at: now, control: control) { return hit(stored, source: .cache, at: now) }
        if !mustAsk, caching.policy == .returnCacheElseLoad { return hit(stored, source: .stale, at: now) }
        if !mustAsk, !rules.mustRevalidate(shared: configuration.isShared) {
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
    /// it names on the same origin (RFC 9111 §4.4). A POST's answer that says it is the
    /// resource at the request's own URL (`Content-Location`) and how long it stays fresh is
    /// stored as that URL's GET answer (RFC 9110 §9.3.3).
    private func sendUnsafe(_ request: HTTPRequest, network: Network) async throws -> CacheAnswer {
        counters.networkRequests.add(1, ordering: .relaxed)
        let sent = now()
        let response = try await network(request)
        var answer = CacheAnswer(response: response)
        let safe: Set<HTTPMethod> = [.get, .head, .options, .trace]
        guard !safe.contains(request.method), (200..<400).contains(response.statusCode) else { return answer }
        var targets = [request.url]
        var describesItself = false
        for name in ["Location", "Content-Location"] {
            if let value = response.headers[name], let url = URL(string: value, relativeTo: request.url)?.absoluteURL,
                url.scheme == request.url.scheme, url.host == request.url.host, url.port == request.url.port
            {
                targets.append(url)
                if name == "Content-Location", Self.key(method: .get, url: url) == Self.key(method: .get, url: request.url) {
                    describesItself = true
                }
            }
        }
        let methods = configuration.storedMethods
        await onStore { [targets] in
            for url in targets {
                for method in methods {
                    self.store.removeResponse(forKey: Self.key(method: method, url: url))
                    self.store.removeResponse(forKey: Self.partialKey(Self.key(method: method, url: url)))
                }
            }
        }
        if request.method == .post, describesItself, configuration.storedMethods.contains(.get) {
            answer.response = await storingAsGET(response, answering: request, sent: sent)
        }
        return answer
    }

    /// `response`, a POST's, stored as the answer to a GET of its URL when it says how long it
    /// stays fresh and may be stored by the usual rules — a streamed body as it is read.
    private func storingAsGET(_ response: HTTPResponse, answering post: HTTPRequest, sent: Date) async -> HTTPResponse {
        let control = CacheControl(response.headers)
        let explicit = control.maxAge != nil || response.headers.contains("Expires") || (configuration.isShared && control.sharedMaxAge != nil)
        guard explicit, post.caching.key == nil else { return response }
        var get = HTTPRequest(url: post.url, method: .get, headers: post.headers)
        get.caching = post.caching
        let key = Self.key(method: .get, url: post.url)
        let postControl = CacheControl(post.headers)
        guard let entry = storable(response, for: get, key: key, control: postControl, requestDate: sent, responseDate: now()) else { return response }
        return await storing(response, as: entry, for: get, control: postControl, sent: sent)
    }

    /// Sends `request` (made conditional when `stored` has validators and the request sets
    /// none of its own), stores what may be stored — a streamed body as it is read —, and
    /// answers a `304` or a failure from `stored` where the rules allow.
    private func fetch(
        _ request: HTTPRequest, key: String, stored: CachedResponse?, control: CacheControl, network: Network
    ) async throws -> CacheAnswer {
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
            await onStore { self.keepCutOff(error, for: request, key: key, control: control, sent: sent) }
            if let stored, let stale = staleForError(stored, control: control) { return stale }
            throw error
        }
        let received = now()
        if conditional, response.statusCode == 304, let stored {
            let updated = stored.revalidated(by: response.headers, requestDate: sent, responseDate: received)
            await onStore {
                if let file = updated.bodyFile {
                    self.store.store(updated, bodyFrom: file, length: updated.bodyLength)
                } else {
                    try? self.store.store(updated)
                }
            }
            counters.revalidations.add(1, ordering: .relaxed)
            counters.bytesSaved.add(updated.bodyLength, ordering: .relaxed)
            return updated.answer(source: .revalidated, age: updated.rules.age(at: received))
        }
        if Self.isServerFailure(response.statusCode), let stored, let stale = staleForError(stored, control: control) {
            return stale
        }
        let kept = await keepingPartial(response, for: request, key: key, control: control, sent: sent)
        guard let entry = storable(kept, for: request, key: key, control: control, requestDate: sent, responseDate: received) else {
            if let stored, kept.statusCode != 304 { await onStore { self.store.removeResponse(forKey: stored.key) } }
            return CacheAnswer(response: kept)
        }
        return CacheAnswer(response: await storing(kept, as: entry, for: request, control: control, sent: sent))
    }

    /// `response`, its body stored as `entry`'s: at once when it is in memory; as it is read
    /// when it is a stream, which is wrapped to copy each chunk into the store's writer (the
    /// entry is kept when the body ends, and when its transfer breaks what arrived is kept as a
    /// piece if it can be one).
    func storing(_ response: HTTPResponse, as entry: CachedResponse, for request: HTTPRequest, control: CacheControl, sent: Date) async -> HTTPResponse {
        guard response.body.isStream else {
            await onStore { self.save(entry, for: request) }
            return response
        }
        let head = response
        let writer = await onStore { () -> (any CacheBodyWriter)? in
            let (stored, index) = self.entries(storing: entry, for: request)
            if let index { try? self.store.store(index) }
            self.noteVariant(index == nil ? nil : stored.key, of: entry.key)
            guard let plain = self.store.bodyWriter(for: stored) else { return nil }
            guard let retargetable = plain as? any RetargetableBodyWriter else { return plain }
            return CutOffKeepingWriter(retargetable) { [self] arrived in
                cutOffPiece(of: head, arrived: arrived, for: request, key: entry.key, control: control, sent: sent)
            }
        }
        guard let writer else { return response }
        var copying = response
        copying.body = response.body
            .copying(
                each: { chunk in await self.onStore { chunk.withUnsafeBytes { writer.write($0) } } },
                atEnd: { await self.onStore { writer.finish() } }
            )
            .whenFinished { error in if error != nil { self.onStoreLater { writer.fail() } } }
        return copying
    }

    /// Stores `entry`, the answer to `request`: under its own key, or as a variant of its URL.
    private func save(_ entry: CachedResponse, for request: HTTPRequest) {
        let (stored, index) = entries(storing: entry, for: request)
        try? store.store(stored)
        if let index { try? store.store(index) }
        noteVariant(index == nil ? nil : stored.key, of: entry.key)
    }

    /// The statuses `stale-if-error` answers for (RFC 5861 §4).
    private static func isServerFailure(_ statusCode: Int) -> Bool {
        [500, 502, 503, 504].contains(statusCode)
    }

    /// Revalidates `key` in a call of its own, unless one is already doing it. The call
    /// streams, so that a new body goes into the store as it arrives, never whole into memory.
    private func revalidateInBackground(_ request: HTTPRequest, key: String, session: HTTPSession) {
        revalidations.launch(key) {
            var options = HTTPRequestOptions(caching: request.caching)
            options.caching.policy = .revalidate
            return .init { [options] in
                do {
                    let response = try await session.stream(request, options: options)
                    for try await _ in response.body {}
                } catch {
                    // A failed revalidation leaves the stored response as it was.
                }
            }
        }
    }
}
