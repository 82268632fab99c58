import Foundation
import NIOCore

/// A file read into `ByteBuffer`s of ``bufferSize`` bytes: what the default transport sends a
/// file body from.
///
/// Why not ``FileChunks``: its `Data` chunks are copied once more into the buffers the
/// connection writes, which for a large upload cost as much CPU as the rest of the transfer.
struct FileByteBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The size of each buffer when nobody watches the progress: four chunks, as each buffer
    /// costs the writer a hop to the event loop (a 64 MiB upload took a quarter less CPU).
    /// With a progress handler, buffers are chunks, the steps progress moves in.
    static let unwatchedBufferSize = 4 * HTTPBodyChunks.chunkSize

    let url: URL
    let bufferSize: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        let url: URL
        let bufferSize: Int
        var handle: FileHandle?
        var finished = false

        /// The next buffer, `nil` at the end of the file.
        ///
        /// - Throws: ``HTTPError/Code/unreadableBody`` when the file cannot be opened or read.
        mutating func next() async throws -> ByteBuffer? {
            guard !finished else { return nil }
            if handle == nil {
                do {
                    handle = try FileHandle(forReadingFrom: url)
                } catch {
                    throw HTTPError.unreadableBody(url.path)
                }
            }
            guard let handle else { return nil }
            var buffer = ByteBufferAllocator().buffer(capacity: bufferSize)
            var failed = false
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: bufferSize) { bytes in
                let target = UnsafeMutableRawBufferPointer(rebasing: bytes.prefix(bufferSize))
                guard let filled = FileByteBuffers.AsyncIterator.read(handle.fileDescriptor, into: target) else {
                    failed = true
                    return 0
                }
                return filled
            }
            if failed { throw HTTPError.unreadableBody(url.path) }
            guard count > 0 else {
                finished = true
                try? handle.close()
                return nil
            }
            return buffer
        }

        /// Fills `bytes` from `descriptor` as far as the file goes: the bytes read, `nil` on an error.
        private static func read(_ descriptor: Int32, into bytes: UnsafeMutableRawBufferPointer) -> Int? {
            var filled = 0
            while filled < bytes.count {
                let count = Foundation.read(descriptor, bytes.baseAddress.map { $0 + filled }, bytes.count - filled)
                if count > 0 {
                    filled += count
                } else if count == 0 {
                    break
                } else if errno != EINTR {
                    return nil
                }
            }
            return filled
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(url: url, bufferSize: bufferSize)
    }
}
