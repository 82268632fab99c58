import Foundation

/// A file's contents as chunks, read when iterated, for streaming uploads.
package struct FileChunks: AsyncSequence, Sendable {
    package typealias Element = Data

    let url: URL
    let chunkSize: Int

    package init(url: URL, chunkSize: Int = HTTPBodyChunks.chunkSize) {
        self.url = url
        self.chunkSize = chunkSize
    }

    package struct AsyncIterator: AsyncIteratorProtocol {
        let url: URL
        let chunkSize: Int
        var handle: FileHandle?
        var finished = false

        package mutating func next() async throws -> Data? {
            guard !finished else { return nil }
            if handle == nil {
                handle = try FileHandle(forReadingFrom: url)
            }
            guard let handle, let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty else {
                finished = true
                try handle?.close()
                return nil
            }
            return chunk
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(url: url, chunkSize: chunkSize)
    }

    /// The file's size in bytes.
    ///
    /// - Throws: ``HTTPError/unreadableBody(_:)`` when the file cannot be read.
    package func size() throws(HTTPError) -> Int {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let size = attributes[.size] as? NSNumber, FileManager.default.isReadableFile(atPath: url.path)
        else { throw .unreadableBody(url.path) }
        return size.intValue
    }
}
