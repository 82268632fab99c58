import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A body already whole, in chunks of at most 64 KiB: from a file (a cache's) or from memory,
/// so that a large stored body never sits in memory whole on its way to a file or a reader;
/// or all at once (``rest(upTo:)``) for a run that keeps it in memory anyway.
///
/// Not `Sendable` for its descriptor: the reader holds it under a lock.
struct StoredBodyChunks: ~Copyable {
    private static let chunkSize = 1 << 16
    /// The open file; -1 for a body in memory, or once the file is read or closed.
    private var descriptor: Int32
    private let path: String
    private let data: Data
    private var left: Int
    /// Where the next chunk starts, in the file or in `data`.
    private var offset = 0

    init(_ data: Data) {
        self.data = data
        path = ""
        descriptor = -1
        left = data.count
    }

    /// - Throws: ``HTTPError/Code/downloadFile`` when the file cannot be opened.
    init(file url: URL, length: Int) throws {
        data = Data()
        path = url.path
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HTTPError.downloadFile(path: url.path, reason: "the cached body is gone") }
        left = length
    }

    /// Whether the chunks are read from a file.
    var isFile: Bool { !path.isEmpty }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The next chunk, `nil` after the last.
    ///
    /// - Throws: ``HTTPError/Code/downloadFile`` when the file ends before its length.
    mutating func next(waiting: Bool = true) throws -> Data? {
        guard left > 0 else {
            closeFile()
            return nil
        }
        return try take(min(left, Self.chunkSize), waiting: waiting)
    }

    /// All that is left, in one read, when it is at most `limit` bytes; `nil` when it is more.
    ///
    /// - Throws: ``HTTPError/Code/downloadFile`` when the file ends before its length.
    mutating func rest(upTo limit: Int, waiting: Bool = true) throws -> Data? {
        guard left <= limit else { return nil }
        let rest = left == 0 ? Data() : try take(left, waiting: waiting)
        closeFile()
        return rest
    }

    /// The next `count` bytes, `count` at most what is left; without `waiting`, only if they
    /// are in the page cache (else ``FileBytes/WouldWait``, and nothing is taken).
    private mutating func take(_ count: Int, waiting: Bool) throws -> Data {
        let chunk: Data
        if descriptor >= 0 {
            guard let read = try FileBytes.read(count, from: descriptor, at: offset, waiting: waiting) else {
                closeFile()
                throw HTTPError.downloadFile(path: path, reason: "the cached body ended early")
            }
            chunk = read
        } else {
            chunk = data[data.startIndex + offset..<data.startIndex + offset + count]
        }
        offset += count
        left -= count
        return chunk
    }

    private mutating func closeFile() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}
