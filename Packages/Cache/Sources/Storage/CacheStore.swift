import Foundation

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

    /// As ``response(forKey:)``, leaving the body in the store's file when it keeps one
    /// (``CachedResponse/bodyFile``), so that a download never holds it in memory.
    func responseLeavingBody(forKey key: String) -> CachedResponse?
    /// Stores `response` with the first `length` bytes of `file` as its body, copied in
    /// pieces; `file` stays where it is.
    func store(_ response: CachedResponse, bodyFrom file: URL, length: Int) throws
}

extension CacheStore {
    /// The response as ``response(forKey:)`` reads it: a store in memory has no file.
    public func responseLeavingBody(forKey key: String) -> CachedResponse? {
        response(forKey: key)
    }

    /// Reads the body into memory and stores it, when it is at most 8 MiB: a store in memory
    /// keeps no downloads larger than that.
    public func store(_ response: CachedResponse, bodyFrom file: URL, length: Int) throws {
        guard length <= 8 << 20 else { return removeResponse(forKey: response.key) }
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var whole = response
        whole.body = try handle.read(upToCount: length) ?? Data()
        whole.bodyFile = nil
        whole.bodyLength = whole.body.count
        guard whole.bodyLength == length else { return removeResponse(forKey: response.key) }
        try store(whole)
    }
}
