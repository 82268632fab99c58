/// Where an ``HTTPCache`` keeps its responses: ``MemoryCacheStore`` or ``DiskCacheStore``, or a
/// store of your own. Each evicts what its limits leave no room for, least recently used first.
public protocol CacheStore: Sendable {
    /// The response stored under `key`, counted as used; `nil` when there is none (or what
    /// there was could not be read, which the store then forgets).
    func response(forKey key: String) -> CachedResponse?
    /// Stores `response` under its key, replacing what was there.
    ///
    /// - Throws: when the store cannot write it; the cache then answers without storing.
    func store(_ response: CachedResponse) throws
    /// Forgets the response under `key`, if any.
    func removeResponse(forKey key: String)
    /// Forgets every response.
    func removeAll()
}
