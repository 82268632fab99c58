import Foundation

/// The body of a response a cache answered with, in chunks of at most 64 KiB: from its file,
/// or from its `data`; for a download's file or a stream's reader, so that a large stored body
/// never sits in memory whole.
struct StoredBodyChunks {
    private static let chunkSize = 1 << 16
    private let file: FileHandle?
    private let path: String
    private let data: Data
    private var left: Int
    private var offset = 0

    /// - Throws: ``HTTPError/Code/downloadFile`` when the stored body's file cannot be opened.
    init(_ answer: HTTPFileResponse) throws {
        data = answer.response.data
        if let bodyFile = answer.bodyFile {
            path = bodyFile.path
            guard let handle = try? FileHandle(forReadingFrom: bodyFile) else {
                throw HTTPError.downloadFile(path: path, reason: "the cached body is gone")
            }
            file = handle
            left = answer.length
        } else {
            path = ""
            file = nil
            left = data.count
        }
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
