import Foundation

/// A body already whole, in chunks of at most 64 KiB: from an open file (a cache's) or from
/// memory, so that a large stored body never sits in memory whole on its way to a file or a
/// reader; or all at once (``rest(upTo:)``) for a run that keeps it in memory anyway.
///
/// Not `Sendable` for its offset: the reader holds it under a lock.
struct StoredBodyChunks: ~Copyable {
    private static let chunkSize = 1 << 16
    /// The open file, read at positions (its holders may share it); `nil` for a body in memory,
    /// or once the file is read.
    private var file: FileHandle?
    private let data: Data
    private var left: Int
    /// Where the next chunk starts, in the file or in `data`.
    private var offset = 0
    /// Whether the chunks are read from a file.
    let isFile: Bool

    init(_ data: Data) {
        self.data = data
        left = data.count
        isFile = false
    }

    /// `length` bytes of `file` from `offset`; the file stays open until they are read or the
    /// chunks are dropped.
    init(file: FileHandle, offset: Int = 0, length: Int) {
        data = Data()
        self.file = file
        self.offset = offset
        left = length
        isFile = true
    }

    /// The next chunk, `nil` after the last.
    ///
    /// - Throws: ``HTTPError/Code/transport`` when the file ends before its length.
    mutating func next(waiting: Bool = true) throws -> Data? {
        guard left > 0 else {
            file = nil
            return nil
        }
        return try take(min(left, Self.chunkSize), waiting: waiting)
    }

    /// All that is left, in one read, when it is at most `limit` bytes; `nil` when it is more.
    ///
    /// - Throws: ``HTTPError/Code/transport`` when the file ends before its length.
    mutating func rest(upTo limit: Int, waiting: Bool = true) throws -> Data? {
        guard left <= limit else { return nil }
        let rest = left == 0 ? Data() : try take(left, waiting: waiting)
        file = nil
        return rest
    }

    /// The next `count` bytes, `count` at most what is left; without `waiting`, only if they
    /// are in the page cache (else ``FileBytes/WouldWait``, and nothing is taken).
    private mutating func take(_ count: Int, waiting: Bool) throws -> Data {
        let chunk: Data
        if let file {
            guard let read = try FileBytes.read(count, from: file.fileDescriptor, at: offset, waiting: waiting) else {
                self.file = nil
                throw HTTPError.transport(reason: "a stored body's file ended before its length: its store changed it in place, or the disk failed")
            }
            chunk = read
        } else {
            chunk = data[data.startIndex + offset..<data.startIndex + offset + count]
        }
        offset += count
        left -= count
        return chunk
    }
}
