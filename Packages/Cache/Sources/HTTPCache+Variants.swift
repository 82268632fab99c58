import Foundation
import JewzHTTPCore

// Variants (RFC 9111 §4.1): a response with `Vary` is stored under its URL's key plus the values
// the request sent for the fields `Vary` names, so that responses for `Accept: text/a` and
// `Accept: text/b` stay side by side. Under the URL's own key goes a small index entry that names
// the fields, so a lookup knows which values to add.
extension HTTPCache {
    /// What a lookup found for `request` under `key`: the response that answers it, or none.
    /// Selecting values are compared normalised (``SelectingHeader``); a variant whose
    /// `Content-Language` is the request's first choice answers whatever else its
    /// `Accept-Language` says. A large body stays in the store's file.
    func lookup(_ key: String, for request: HTTPRequest) -> CachedResponse? {
        lookup(key, for: request) { self.store.responseLeavingBody(forKey: $0) }
    }

    /// The lookup for `request` under `key`, without waiting on the disk when a disk store's
    /// files are in memory (the common hit, read here); on the cache's threads otherwise.
    func lookupOnStore(_ key: String, for request: HTTPRequest) async -> CachedResponse? {
        if let diskStore {
            do {
                return try lookup(key, for: request) { key throws(FileBytes.WouldWait) in
                    guard case .read(let entry) = diskStore.responseLeavingBodyWithoutWaiting(forKey: key) else { throw FileBytes.WouldWait() }
                    return entry
                }
            } catch {
                // A file not in memory: read on the pool.
            }
        }
        return await onStore { self.lookup(key, for: request) }
    }

    private func lookup<Failure: Error>(
        _ key: String, for request: HTTPRequest, reading read: (String) throws(Failure) -> CachedResponse?
    ) throws(Failure) -> CachedResponse? {
        guard let found = try read(key) else { return nil }
        guard found.isVariantIndex else { return Self.varyMatches(found, request) ? found : nil }
        if let exact = try read(Self.variantKey(key, names: found.rules.varyNames, request: request)), Self.varyMatches(exact, request) {
            return exact
        }
        guard found.rules.varyNames.contains(where: { $0.lowercased() == "accept-language" }) else { return nil }
        // The variants this process knows of, the one stored last first.
        let known = variants.withLock { $0[key] ?? [] }.reversed()
        let latest = found.headers[CachedResponse.latestVariantField].map { [$0] } ?? []
        for candidate in latest + known.filter({ !latest.contains($0) }) {
            if let variant = try read(candidate), Self.varyMatches(variant, request, acceptingContentLanguage: true) { return variant }
        }
        return nil
    }

    /// The entries that store `entry` for `request`: itself, or — when it varies — itself under
    /// its variant's key and the index under the URL's.
    func entries(storing entry: CachedResponse, for request: HTTPRequest) -> (entry: CachedResponse, index: CachedResponse?) {
        let names = entry.rules.varyNames
        guard !names.isEmpty else { return (entry, nil) }
        let variant = entry.replacing(key: Self.variantKey(entry.key, names: names, request: request))
        return (variant, CachedResponse.variantIndex(key: entry.key, varyNames: names, latest: variant.key, date: entry.responseDate))
    }

    /// The response stored under `key`, whatever a request would select: for a URL whose
    /// responses vary, the variant stored last. For a look at what the store holds (an image
    /// cache's offline read), not for answering a request.
    public func storedResponse(forKey key: String) -> CachedResponse? {
        guard let found = store.response(forKey: key) else { return nil }
        guard found.isVariantIndex else { return found }
        return found.headers[CachedResponse.latestVariantField].flatMap { store.response(forKey: $0) }
    }

    /// Notes that `variant` is stored for the URL `key`, forgetting the oldest variant past
    /// ``Configuration-swift.struct/maximumVariantsPerURL``; a response without `Vary` under
    /// `key` (`variant` nil) replaces every variant.
    func noteVariant(_ variant: String?, of key: String) {
        let evicted = variants.withLock { variants -> [String] in
            var kept = variants[key] ?? []
            guard let variant else {
                variants[key] = nil
                return kept
            }
            kept.removeAll { $0 == variant }
            kept.append(variant)
            let excess = max(0, kept.count - configuration.maximumVariantsPerURL)
            variants[key] = Array(kept.dropFirst(excess))
            return Array(kept.prefix(excess))
        }
        for key in evicted { store.removeResponse(forKey: key) }
    }

    /// The key of the variant of `key` that `request` selects: the URL's key, then each field
    /// `Vary` names with the request's value (a marker where it has none).
    static func variantKey(_ key: String, names: [String], request: HTTPRequest) -> String {
        names.reduce(key) { partial, name in
            partial + "\n" + name + ": " + (SelectingHeader.normalized(request.headers[name], for: name) ?? "\u{1}")
        }
    }
}

extension CachedResponse {
    /// Whether this entry is the index of a URL's variants rather than a response.
    var isVariantIndex: Bool { statusCode == 0 }

    /// The index entry's field naming the variant stored last.
    static let latestVariantField = "Jewz-Latest-Variant"

    /// An index entry under `key`: the fields its variants vary by and the key of the one
    /// stored last; no response.
    static func variantIndex(key: String, varyNames: [String], latest: String, date: Date) -> CachedResponse {
        CachedResponse(
            key: key, statusCode: 0, headers: ["Vary": varyNames.joined(separator: ", "), latestVariantField: latest], body: Data(),
            url: nil, requestDate: date, responseDate: date, varyingFields: [:])
    }
}
