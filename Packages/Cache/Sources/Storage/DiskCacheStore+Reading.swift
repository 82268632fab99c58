import Foundation
import JewzHTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Reading an entry, waiting on the disk or not: a hit whose file is in the page cache is read
// where it is asked for, with no hop to a thread that may wait; one that would wait is read
// again on the cache's threads.
extension DiskCacheStore {
    /// What a read that may not wait on the disk found.
    enum ReadWithoutWaiting {
        case read(CachedResponse?)
        /// Some of the entry's bytes are on the disk only, or the entry is damaged (discarding
        /// it waits on the directory's lock): read it where waiting is allowed.
        case wouldWait
    }

    /// Reads an entry of at most 1 MiB whole, in one read (less than a stream costs); of a
    /// larger one, the footer and metadata only: the body stays in the entry's file, read later
    /// from the descriptor its metadata was read from. Entries are replaced by rename, never
    /// rewritten, so that file keeps its bytes once a newer entry or an eviction takes its name.
    public func responseLeavingBody(forKey key: String) -> CachedResponse? {
        guard case .read(let entry) = read(key, waiting: true, wholeUpTo: Self.inlineEntryLimit) else { return nil }
        return entry
    }

    /// As ``responseLeavingBody(forKey:)``, from the page cache only (`RWF_NOWAIT`): nothing
    /// here waits on the disk or on a lock but the in-memory order of use's.
    func responseLeavingBodyWithoutWaiting(forKey key: String) -> ReadWithoutWaiting {
        read(key, waiting: false, wholeUpTo: Self.inlineEntryLimit)
    }

    /// The entry under `key`: whole when its file is at most `limit` bytes, else its body left in
    /// the file. A damaged entry is discarded when `waiting` (discarding waits on the lock).
    func read(_ key: String, waiting: Bool, wholeUpTo limit: Int) -> ReadWithoutWaiting {
        let name = Self.fileName(forKey: key)
        let descriptor = open(entries.appendingPathComponent(name).path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .read(nil) }
        // The body is read from this descriptor, whatever the name points to by then.
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .read(nil) }
        let size = Int(status.st_size)

        // Not all in memory, or cut short: without waiting, the waiting read decides.
        func bytes(_ count: Int, at offset: Int) throws -> Data? {
            try FileBytes.read(count, from: descriptor, at: offset, waiting: waiting)
        }

        do {
            let entry: CachedResponse
            if size <= limit {
                guard let file = try bytes(size, at: 0) else { throw CacheError.corruptEntry("cut short") }
                entry = try EntryCoding.decode(file)
            } else {
                guard size >= EntryCoding.footerSize, let footer = try bytes(EntryCoding.footerSize, at: size - EntryCoding.footerSize) else {
                    throw CacheError.corruptEntry("shorter than its footer")
                }
                let lengths = try footer.withUnsafeBytes { try EntryCoding.footer($0, fileSize: size) }
                guard let metadata = try bytes(lengths.metadata, at: lengths.body) else { throw CacheError.corruptEntry("metadata cut short") }
                entry = try metadata.withUnsafeBytes { try EntryCoding.metadata($0, body: Data(), bodyLength: lengths.body) }
                    .withBody(in: file, length: lengths.body)
            }
            guard entry.key == key else { return .read(nil) }  // another key with the same file name
            noteUse(name, size: size)
            return .read(entry)
        } catch is FileBytes.WouldWait {
            return .wouldWait
        } catch {
            guard waiting else { return .wouldWait }
            discard(name)
            return .read(nil)
        }
    }
}
