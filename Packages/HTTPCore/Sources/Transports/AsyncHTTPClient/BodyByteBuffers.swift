import Foundation
import NIOCore
import NIOFoundationCompat

/// A replayable body — bytes in memory and files, one after the other — as `ByteBuffer`s of at
/// most ``bufferSize`` bytes: what the default transport sends a file or a multipart body from.
///
/// Why not ``HTTPBodyChunks``: its `Data` chunks are copied once more into the buffers the
/// connection writes, which for a large upload cost as much CPU as the rest of the transfer.
/// Here a file is read straight into the buffer that is sent.
struct BodyByteBuffers: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The size of each buffer when nobody watches the progress: four chunks, as each buffer
    /// costs the writer a hop to the event loop (a 64 MiB upload took a quarter less CPU).
    /// With a progress handler, buffers are chunks, the steps progress moves in.
    static let unwatchedBufferSize = 4 * HTTPBodyChunks.chunkSize

    let segments: [HTTPBodySegment]
    let bufferSize: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        private enum Reader {
            case data(Data, offset: Int)
            /// `end`: the file's size when it was opened, the bytes its length was counted with.
            case file(FileHandle, path: String, offset: Int, end: Int)
        }

        private var remaining: ArraySlice<HTTPBodySegment>
        private let bufferSize: Int
        private var reader: Reader?

        fileprivate init(segments: [HTTPBodySegment], bufferSize: Int) {
            remaining = segments[...]
            self.bufferSize = bufferSize
        }

        /// The next buffer, `nil` after the last segment.
        ///
        /// - Throws: ``HTTPError/Code/unreadableBody`` when a file cannot be opened or read.
        mutating func next() async throws -> ByteBuffer? {
            while true {
                if reader == nil {
                    guard let segment = remaining.popFirst() else { return nil }
                    reader = try Self.reader(for: segment)
                }
                if let buffer = try await nextFromReader() { return buffer }
                if case .file(let handle, _, _, _) = reader { try? handle.close() }
                reader = nil
            }
        }

        private static func reader(for segment: HTTPBodySegment) throws(HTTPError) -> Reader {
            switch segment {
            case .data(let data):
                return .data(data, offset: data.startIndex)
            case .file(let url):
                let (handle, size) = try FileBytes.open(url)
                return .file(handle, path: url.path, offset: 0, end: size)
            }
        }

        /// The next buffer of the current segment, `nil` at its end.
        private mutating func nextFromReader() async throws(HTTPError) -> ByteBuffer? {
            switch reader {
            case .data(let data, let offset)?:
                guard offset < data.endIndex else { return nil }
                let end = Swift.min(offset + bufferSize, data.endIndex)
                reader = .data(data, offset: end)
                return ByteBuffer(data: data[offset..<end])
            case .file(let handle, let path, let offset, let end)?:
                guard offset < end else { return nil }
                // Read in place when the page cache holds the bytes; on NIO's thread pool, which
                // may wait on the disk, when it does not. Never past the size the file was
                // opened with, so that a last, short buffer is no miss to the read that may not
                // wait; a file cut short since ends early.
                let size = Swift.min(bufferSize, end - offset)
                let buffer: ByteBuffer
                do {
                    buffer = try await FileBytes.readInPlaceOrOnPool { waiting in
                        try BodyByteBuffers.read(size, from: handle, at: offset, waiting: waiting)
                    }
                } catch {
                    throw .unreadableBody(path)
                }
                reader = .file(handle, path: path, offset: offset + buffer.readableBytes, end: end)
                return buffer.readableBytes > 0 ? buffer : nil
            case nil:
                return nil
            }
        }
    }

    /// Up to `size` bytes of `file` from `offset`, read straight into a new buffer: fewer only at
    /// the file's end.
    ///
    /// - Throws: ``FileBytes/WouldWait`` when not `waiting` and the page cache cannot fill the
    ///   buffer; ``ReadFailed`` when the read fails.
    private static func read(_ size: Int, from file: FileHandle, at offset: Int, waiting: Bool) throws -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { bytes in
            let target = UnsafeMutableRawBufferPointer(rebasing: bytes.prefix(size))
            guard let filled = try FileBytes.fill(target, from: file.fileDescriptor, at: offset, waiting: waiting) else { throw ReadFailed() }
            return filled
        }
        return buffer
    }

    private struct ReadFailed: Error {}

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(segments: segments, bufferSize: bufferSize)
    }
}
