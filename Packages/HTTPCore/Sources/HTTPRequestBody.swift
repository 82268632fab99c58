import Foundation
import Synchronization

/// What a request sends: bytes in memory, a file streamed from disk, a sequence of both, or a
/// one-shot stream.
///
/// Data and file bodies can be sent again (retries, restarts, challenges, redirects); a stream
/// is produced once as it is sent, so the cycle never resends it: a retry or a challenge is
/// not attempted, and a restart or a 307/308 redirect fails with
/// ``HTTPError/bodyNotReplayable``, never sending it truncated or empty.
public enum HTTPRequestBody: Sendable {
    case data(Data)
    /// A file, read in chunks as it is sent (never whole into memory).
    case file(URL)
    case stream(HTTPBodyStream)
    /// Pieces in memory and files, sent one after the other without being joined first (how
    /// multipart bodies stay streamed and replayable, with a known length).
    case segments([HTTPBodySegment])

    /// Whether the body can be sent more than once.
    public var isReplayable: Bool {
        if case .stream = self { false } else { true }
    }
}

/// One piece of a ``HTTPRequestBody/segments(_:)`` body.
public enum HTTPBodySegment: Sendable {
    case data(Data)
    /// A file, read in chunks when sent.
    case file(URL)
}

/// A body produced as it is sent, such as a pipe or a generator: it can be sent once.
///
/// ```swift
/// let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
/// cycle.request.body = .stream(HTTPBodyStream(length: 11, chunks))
/// continuation.yield(Data("Hello World".utf8)); continuation.finish()
/// ```
public final class HTTPBodyStream: Sendable {
    /// The length in bytes, if known up front (sent as Content-Length; else chunked).
    public let length: Int?
    private let chunks: Mutex<AsyncThrowingStream<Data, any Error>?>

    public init(length: Int? = nil, _ chunks: AsyncThrowingStream<Data, any Error>) {
        self.length = length
        self.chunks = Mutex(chunks)
    }

    /// The chunks, the first time they are asked for.
    ///
    /// - Throws: ``HTTPError/bodyNotReplayable`` every later time.
    public func take() throws(HTTPError) -> AsyncThrowingStream<Data, any Error> {
        let taken = chunks.withLock { chunks in
            defer { chunks = nil }
            return chunks
        }
        guard let taken else { throw .bodyNotReplayable }
        return taken
    }
}

/// A file's contents as chunks, read when iterated, for streaming uploads.
public struct FileChunks: AsyncSequence, Sendable {
    public typealias Element = Data

    public let url: URL
    public let chunkSize: Int

    public init(url: URL, chunkSize: Int = HTTPBodyChunks.chunkSize) {
        self.url = url
        self.chunkSize = chunkSize
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let url: URL
        let chunkSize: Int
        var handle: FileHandle?
        var finished = false

        public mutating func next() async throws -> Data? {
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

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(url: url, chunkSize: chunkSize)
    }

    /// The file's size in bytes.
    ///
    /// - Throws: ``HTTPError/unreadableBody(_:)`` when the file cannot be read.
    public func size() throws(HTTPError) -> Int {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            let size = attributes[.size] as? NSNumber, FileManager.default.isReadableFile(atPath: url.path)
        else { throw .unreadableBody(url.path) }
        return size.intValue
    }
}
