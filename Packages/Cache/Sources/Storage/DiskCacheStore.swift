import Foundation
import JewzHTTPCore
import JewzLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Responses in files under a directory, least recently used evicted first once they pass a
/// size limit; crash-safe and shared safely between processes.
///
/// - An entry is written to `tmp/` and renamed into `entries/` when whole, so after a
///   `kill -9` at any moment it is either whole or absent; a damaged file fails its footer
///   check and is discarded, never served (`EntryCoding`).
/// - The order of use is kept in `journal` (a line per write, read and removal, as OkHttp's
///   DiskLruCache does), not in file access times, which `noatime` mounts do not keep. A torn
///   last line is ignored; the journal is rewritten short when it grows.
/// - Changes to the directory take an `flock` on `lock`, so two processes on one directory do
///   not corrupt it; each evicts by what it knows, and a new store counts every file present.
///
/// Its methods wait on the file system, so ``HTTPCache`` calls them on threads of its own
/// (``performsBlockingIO``); call them there too, not from a task. No lock is held across a
/// file operation but the `flock` that orders changes to the directory. A response kept in
/// memory is read whole; a download's or a stream's body goes in and out of its file in pieces
/// (``bodyWriter(for:)``, ``responseLeavingBody(forKey:)``).
public final class DiskCacheStore: CacheStore {
    /// The store's directory: `entries/`, `tmp/`, `journal` and `lock`.
    public let directory: URL
    /// The most bytes the entries may take together.
    public let sizeLimit: Int
    /// The largest entry ``responseLeavingBody(forKey:)`` reads whole, body included: as much
    /// as a streamed response may hold in memory while its reader catches up.
    static let inlineEntryLimit = 1 << 20
    let entries: URL
    private let temporary: URL
    private let journalPath: String
    private let lockPath: String
    /// The order of use and the journal it is written to; held only while they change in
    /// memory, never across a file operation.
    private let state: Mutex<State>

    private struct State {
        var index = LRUList<Int>()
        var journal: JournalFile?
        var journalLines = 0
    }

    /// The journal's descriptor, closed when the last writer that took it is done, so that a
    /// line is never written to a descriptor the rewrite closed and the system gave out again.
    private final class JournalFile: Sendable {
        let descriptor: Int32

        init?(path: String) {
            descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return nil }
        }

        /// One `write` per line on an append-only descriptor: lines of concurrent writers
        /// never interleave within a line.
        func append(_ lines: String) {
            var lines = lines
            lines.withUTF8 { _ = Glibc.write(descriptor, $0.baseAddress, $0.count) }
        }

        deinit { close(descriptor) }
    }

    /// Always `true`: every method reads or changes files.
    public var performsBlockingIO: Bool { true }

    /// Opens (or makes) the store in `directory`.
    ///
    /// - Throws: ``CacheError/Code/directoryUnusable`` when the directory cannot be made or its
    ///   lock file opened.
    public init(directory: URL, sizeLimit: Int = 256 << 20) throws {
        self.directory = directory
        self.sizeLimit = sizeLimit
        entries = directory.appendingPathComponent("entries")
        temporary = directory.appendingPathComponent("tmp")
        journalPath = directory.appendingPathComponent("journal").path
        do {
            for folder in [entries, temporary] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
        } catch {
            throw CacheError.directoryUnusable(directory.path, "\(error.localizedDescription)")
        }
        lockPath = directory.appendingPathComponent("lock").path
        state = Mutex(State())
        try withFileLock {
            let index = rebuild()
            state.withLock { $0.index = index }
            try rewriteJournal()
            evict()
        }
        removeAbandonedTemporaryFiles()
    }

    /// The bytes and the number of entries this store knows of.
    public var usage: (size: Int, count: Int) {
        state.withLock { ($0.index.totalCost, $0.index.count) }
    }

    // MARK: CacheStore

    /// The entry whole, however large its body: for a caller that keeps it in memory.
    public func response(forKey key: String) -> CachedResponse? {
        guard case .read(let entry) = read(key, waiting: true, wholeUpTo: .max) else { return nil }
        return entry
    }

    /// Moves an entry to the front of the order of use, with a journal line.
    func noteUse(_ name: String, size: Int) {
        let journal = state.withLock { state -> JournalFile? in
            // Reading the most recent entry again changes no order: no journal line.
            guard !state.index.isMostRecent(name) else { return nil }
            if state.index.use(name) == nil { state.index.insert(size, forKey: name, cost: size) }
            state.journalLines += 1
            return state.journal
        }
        journal?.append("R \(name)\n")
    }

    public func store(_ response: CachedResponse) throws {
        let writer = try DiskBodyWriter(response, store: self)
        response.body.withUnsafeBytes { writer.write($0) }
        try writer.commit()
    }

    /// A writer that puts the body in a file in `tmp/` as it arrives and renames the entry
    /// into place when finished: a large body is stored without being held in memory.
    public func bodyWriter(for response: CachedResponse) -> (any CacheBodyWriter)? {
        try? DiskBodyWriter(response, store: self)
    }

    /// A new file in `tmp/` for an entry of `key`, open for writing.
    ///
    /// - Throws: ``CacheError/Code/directoryUnusable`` when it cannot be made.
    func scratchFile(forKey key: String) throws -> (path: String, descriptor: Int32) {
        let path = temporary.appendingPathComponent(
            "\(Self.fileName(forKey: key)).\(getpid()).\(UInt32.random(in: 0...UInt32.max))").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CacheError.directoryUnusable(directory.path, String(cString: strerror(errno))) }
        return (path, descriptor)
    }

    /// Renames a whole entry, `size` bytes, from `tmp/` into place, notes it in the journal and
    /// evicts what no longer fits. An entry larger than the whole store is not kept.
    func install(_ scratch: String, forKey key: String, size: Int) throws {
        let name = Self.fileName(forKey: key)
        guard size <= sizeLimit else {
            unlink(scratch)
            return removeResponse(forKey: key)
        }
        try withFileLock {
            guard rename(scratch, entries.appendingPathComponent(name).path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(scratch)
                throw CacheError.directoryUnusable(directory.path, reason)
            }
            let (journal, rewrite) = state.withLock { state in
                state.index.insert(size, forKey: name, cost: size)
                state.journalLines += 1
                return (state.journal, state.journalLines > 2_000 && state.journalLines > 4 * state.index.count)
            }
            journal?.append("W \(name) \(size)\n")
            evict()
            if rewrite { try rewriteJournal() }
        }
    }

    public func removeResponse(forKey key: String) {
        discard(Self.fileName(forKey: key))
    }

    public func removeAll() {
        try? withFileLock {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: entries.path)) ?? [] {
                unlink(entries.appendingPathComponent(name).path)
            }
            state.withLock { $0.index = LRUList() }
            try rewriteJournal()
        }
    }

    // MARK: Files

    func discard(_ name: String) {
        try? withFileLock {
            unlink(entries.appendingPathComponent(name).path)
            let journal = state.withLock { state -> JournalFile? in
                guard state.index.remove(name) != nil else { return nil }
                state.journalLines += 1
                return state.journal
            }
            journal?.append("D \(name)\n")
        }
    }

    /// Removes least recently used entries until the size limit holds. Under the file lock.
    private func evict() {
        let (evicted, journal) = state.withLock { state in
            let evicted = state.index.evict(toCost: sizeLimit, count: Int.max)
            state.journalLines += evicted.count
            return (evicted, state.journal)
        }
        guard !evicted.isEmpty else { return }
        for name in evicted { unlink(entries.appendingPathComponent(name).path) }
        journal?.append(evicted.map { "D \($0)\n" }.joined())
    }

    /// The index from the journal's complete lines, checked against the files present: a file
    /// the journal does not name (its writer died between the rename and the journal line)
    /// counts as least recently used, a name without a file is dropped.
    private func rebuild() -> LRUList<Int> {
        var sizes: [String: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: entries.path)) ?? [] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: entries.appendingPathComponent(name).path)
            sizes[name] = (attributes?[.size] as? NSNumber)?.intValue ?? 0
        }
        let journal = FileManager.default.contents(atPath: journalPath) ?? Data()
        let complete = journal.lastIndex(of: UInt8(ascii: "\n")).map { journal[...$0] } ?? Data()[...]
        let lines = complete.split(separator: UInt8(ascii: "\n")).compactMap { line -> (action: Substring, name: String)? in
            let parts = String(decoding: line, as: UTF8.self).split(separator: " ")
            return parts.count >= 2 ? (parts[0], String(parts[1])) : nil
        }
        let named = Set(lines.map(\.name))
        var index = LRUList<Int>()
        for (name, size) in sizes where !named.contains(name) { index.insert(size, forKey: name, cost: size) }
        for (action, name) in lines {
            switch action {
            case "W", "R":
                if let size = sizes[name] { index.insert(size, forKey: name, cost: size) }
            case "D":
                index.remove(name)
            default:
                continue
            }
        }
        return index
    }

    /// Writes the journal anew — a `W` line per entry, least recently used first — and
    /// renames it over the old one. Under the file lock.
    private func rewriteJournal() throws {
        let lines = state.withLock { state in state.index.keysByAge.map { "W \($0) \(state.index.peek($0) ?? 0)\n" }.joined() }
        let scratch = journalPath + ".tmp"
        let descriptor = open(scratch, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CacheError.directoryUnusable(directory.path, String(cString: strerror(errno))) }
        defer { close(descriptor) }
        try Data(lines.utf8).withUnsafeBytes { try Self.write($0, to: descriptor) }
        guard rename(scratch, journalPath) == 0 else {
            throw CacheError.directoryUnusable(directory.path, String(cString: strerror(errno)))
        }
        let journal = JournalFile(path: journalPath)
        state.withLock { state in
            state.journal = journal
            state.journalLines = state.index.count
        }
    }

    /// Writes `buffer` whole to `descriptor`.
    static func write(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) throws {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw CacheError.directoryUnusable("the cache", String(cString: strerror(errno))) }
            offset += written
        }
    }

    /// Temporary files a dead writer left: any older than an hour (a live one is younger).
    private func removeAbandonedTemporaryFiles() {
        let cutoff = Date().addingTimeInterval(-3600)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] {
            let path = temporary.appendingPathComponent(name).path
            if let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date, modified < cutoff {
                unlink(path)
            }
        }
    }

    /// Runs `body` holding the directory's `flock`, taken on a descriptor of its own: a lock
    /// belongs to an open file, so this orders the changes of this process's threads as well
    /// as those of other processes.
    private func withFileLock<T>(_ body: () throws -> T) throws -> T {
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw CacheError.directoryUnusable(directory.path, String(cString: strerror(errno))) }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0, errno == EINTR {}
        return try body()
    }

    /// 32 hex digits from two FNV-1a hashes of the key; the key itself is checked on read.
    static func fileName(forKey key: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x84222325_cbf29ce4
        for byte in key.utf8 {
            first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x100_0000_01b3 ^ (second >> 29)
        }
        return [first, second].map { value in
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
