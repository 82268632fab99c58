import Foundation

/// A body already whole, in chunks of at most 64 KiB: from a file (a cache's) or from memory,
/// so that a large stored body never sits in memory whole on its way to a file or a reader.
struct StoredBodyChunks {
    private static let chunkSize = 1 << 16
    private let file: FileHandle?
    private let path: String
    private let data: Data
    private var left: Int
    private var offset = 0

    init(_ data: Data) {
        self.data = data
        path = ""
        file = nil
        left = data.count
    }

    /// - Throws: ``HTTPError/Code/downloadFile`` when the file cannot be opened.
    init(file url: URL, length: Int) throws {
        data = Data()
        path = url.path
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw HTTPError.downloadFile(path: path, reason: "the cached body is gone")
        }
        file = handle
        left = length
    }

    /// The next chunk, `nil` after the last.
    ///
    /// - Throws: ``HTTPError/Code/downloadFile`` when the file ends before its length.
    mutating func next() throws -> Data? {
        guard left > 0 else {
            try? file?.close()
            return nil
        }
        let count = min(left, Self.chunkSize)
        let chunk: Data
        if let file {
            guard let read = try file.read(upToCount: count), !read.isEmpty else {
                try? file.close()
                throw HTTPError.downloadFile(path: path, reason: "the cached body ended early")
            }
            chunk = read
        } else {
            chunk = data[data.startIndex + offset..<data.startIndex + offset + count]
            offset += count
        }
        left -= chunk.count
        return chunk
    }
}
