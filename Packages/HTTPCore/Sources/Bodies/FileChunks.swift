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
        /// The open file, and its size when it was opened: the bytes its length was counted with.
        private var file: (handle: FileHandle, size: Int)?
        private var offset = 0
        private var finished = false

        init(url: URL, chunkSize: Int) {
            self.url = url
            self.chunkSize = chunkSize
        }

        /// The next chunk, read in place when the page cache holds its bytes and on NIO's
        /// thread pool, which may wait on the disk, when it does not; `nil` at the file's end,
        /// or at the size it had when opened (so that a last, short chunk is no miss to the read
        /// that may not wait).
        ///
        /// - Throws: ``HTTPError/Code/unreadableBody`` when the file cannot be opened or read.
        package mutating func next() async throws -> Data? {
            guard !finished else { return nil }
            let file = try self.file ?? open()
            let (size, path, offset) = (Swift.min(chunkSize, file.size - self.offset), url.path, self.offset)
            let chunk = size <= 0 ? Data() : try await FileBytes.readInPlaceOrOnPool { waiting in
                try Self.read(size, from: file.handle, at: offset, waiting: waiting, path: path)
            }
            guard !chunk.isEmpty else {
                finished = true
                self.file = nil
                return nil
            }
            self.offset += chunk.count
            return chunk
        }

        private mutating func open() throws(HTTPError) -> (handle: FileHandle, size: Int) {
            let opened = try FileBytes.open(url)
            file = opened
            return opened
        }

        /// Up to `size` bytes from `offset`: fewer only at the file's end.
        private static func read(_ size: Int, from file: FileHandle, at offset: Int, waiting: Bool, path: String) throws -> Data {
            var chunk = Data(count: size)
            let filled = try chunk.withUnsafeMutableBytes { try FileBytes.fill($0, from: file.fileDescriptor, at: offset, waiting: waiting) }
            guard let filled else { throw HTTPError.unreadableBody(path) }
            chunk.count = filled
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
