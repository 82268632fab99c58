import Foundation
import JewzHTTPCore

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

    /// As ``response(forKey:)``, leaving a large body in the store's file when it keeps one
    /// (``CachedResponse/bodyFile``): the cache hands it up as a stream, so that a download or
    /// a reader never holds it in memory. What the cache reads its entries with.
    func responseLeavingBody(forKey key: String) -> CachedResponse?
    /// A writer that stores `response` under its key, with the bytes written to it as its
    /// body, once it is finished; what was stored before stays until then. `nil` when the
    /// store cannot take a body now.
    func bodyWriter(for response: CachedResponse) -> (any CacheBodyWriter)?
    /// Whether the store's methods, and its writers', wait on files or another resource that
    /// blocks a thread: ``HTTPCache`` then calls them on threads of its own, so that a task's
    /// thread, one of the few every task shares, never waits on them.
    var performsBlockingIO: Bool { get }
}

extension CacheStore {
    /// `false`: the store works in memory.
    public var performsBlockingIO: Bool { false }

    /// The response as ``response(forKey:)`` reads it: a store in memory has no file.
    public func responseLeavingBody(forKey key: String) -> CachedResponse? {
        response(forKey: key)
    }

    /// A writer that gathers the body in memory and stores it when finished, if it was at
    /// most 8 MiB (`BoundedGathering.memoryLimit`): a store in memory keeps no streamed body
    /// larger than that.
    public func bodyWriter(for response: CachedResponse) -> (any CacheBodyWriter)? {
        GatheringBodyWriter(response, limit: BoundedGathering.memoryLimit) { try? self.store($0) }
    }

    /// Stores `response` with the first `length` bytes of `file` as its body, copied in
    /// pieces through ``bodyWriter(for:)``; nothing is stored when the file is shorter.
    func store(_ response: CachedResponse, bodyFrom file: FileHandle, length: Int) {
        guard let writer = bodyWriter(for: response), copyBody(from: file, length: length, into: writer) else { return }
        writer.finish()
    }
}

/// Writes the first `length` bytes of `file` into `writer`, a megabyte at a time, read at their
/// positions (the handle may be shared).
///
/// - Returns: whether the file held them all.
func copyBody(from file: FileHandle, length: Int, into writer: any CacheBodyWriter) -> Bool {
    var offset = 0
    while offset < length {
        guard let chunk = FileBytes.read(min(length - offset, 1 << 20), from: file.fileDescriptor, at: offset) else { return false }
        chunk.withUnsafeBytes { writer.write($0) }
        offset += chunk.count
    }
    return true
}
