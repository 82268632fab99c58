import Foundation
import JewzLocking

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a recorder's entries go: memory, or a file kept a whole archive after every entry, so
/// that a crash loses at most the entry being written (``HTTPArchive/init(contentsOf:)`` reads
/// what is left even then).
///
/// The file is written as one line for the log's head, one line per entry, and the closing
/// brackets; each entry goes where the closing brackets were, followed by them again.
final class HARSink: Sendable {
    private enum Storage {
        case memory([HTTPArchive.Entry])
        case file(descriptor: Int32, closingOffset: Int, entries: Int)
    }

    private static let closing = Data("\n]}}\n".utf8)
    private let storage: Mutex<Storage>
    private let creator: HTTPArchive.Creator
    let path: String?

    /// A sink that keeps entries in memory.
    init(creator: HTTPArchive.Creator) {
        storage = Mutex(.memory([]))
        self.creator = creator
        path = nil
    }

    /// A sink that writes `file` anew, as an archive with no entries yet.
    ///
    /// - Throws: ``HARError/Code/unwritableArchive``.
    init(file: URL, creator: HTTPArchive.Creator) throws(HARError) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw HARError(.unwritableArchive, "\(file.path): \(String(cString: strerror(errno)))") }
        let creatorJSON = (try? JSONEncoder().encode(creator)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let head = Data(#"{"log":{"version":"1.2","creator":\#(creatorJSON),"entries":["#.utf8)
        guard Self.write(head + Self.closing, to: descriptor, at: 0) else {
            close(descriptor)
            throw HARError(.unwritableArchive, "\(file.path): \(String(cString: strerror(errno)))")
        }
        storage = Mutex(.file(descriptor: descriptor, closingOffset: head.count, entries: 0))
        self.creator = creator
        path = file.path
    }

    deinit {
        storage.withLock { storage in
            if case .file(let descriptor, _, _) = storage { close(descriptor) }
        }
    }

    /// Adds `entry`; a file that cannot take it more is left as it was (a recording never
    /// fails the request it records).
    func append(_ entry: HTTPArchive.Entry) {
        storage.withLock { storage in
            switch storage {
            case .memory(var entries):
                entries.append(entry)
                storage = .memory(entries)
            case .file(let descriptor, let offset, let count):
                guard let json = try? JSONEncoder().encode(entry) else { return }
                let line = Data((count == 0 ? "\n" : ",\n").utf8) + json
                guard Self.write(line + Self.closing, to: descriptor, at: offset) else { return }
                storage = .file(descriptor: descriptor, closingOffset: offset + line.count, entries: count + 1)
            }
        }
    }

    /// The archive recorded so far: the entries in memory, or the file read back.
    ///
    /// - Throws: ``HARError/Code/unreadableArchive`` when the file cannot be read back.
    func archive() throws(HARError) -> HTTPArchive {
        let entries: [HTTPArchive.Entry]? = storage.withLock { storage in
            if case .memory(let entries) = storage { return entries }
            return nil
        }
        if let entries { return HTTPArchive(log: .init(creator: creator, entries: entries)) }
        return try HTTPArchive(contentsOf: URL(fileURLWithPath: path ?? ""))
    }

    private static func write(_ data: Data, to descriptor: Int32, at offset: Int) -> Bool {
        data.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let result = pwrite(descriptor, bytes.baseAddress?.advanced(by: written), bytes.count - written, off_t(offset + written))
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += result
            }
            return true
        }
    }
}
