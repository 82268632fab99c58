import Foundation

/// A request body as the chunks a transport sends, whatever its source, counting each chunk
/// as sent when the transport asks for the next one (or for the end).
///
/// Transports outside this module see it as ``HTTPRequestBody/chunks(reporting:)``'s sequence;
/// a chunk is at most ``chunkSize`` bytes, so progress moves in steps a person can see.
package struct HTTPBodyChunks: AsyncSequence, Sendable {
    package typealias Element = Data

    /// The largest chunk handed out.
    package static let chunkSize = 64 << 10

    /// The length in bytes, when known before sending.
    package let length: Int?

    enum Source: Sendable {
        case data(Data)
        case file(FileChunks)
        case stream(AsyncThrowingStream<Data, any Error>)
        case segments([HTTPBodySegment])
    }

    let source: Source
    let onSent: (@Sendable (Int) -> Void)?

    package struct AsyncIterator: AsyncIteratorProtocol {
        enum Reader {
            case data(Data, offset: Int)
            case file(FileChunks.AsyncIterator)
            case stream(AsyncThrowingStream<Data, any Error>.AsyncIterator)
        }

        var reader: Reader
        /// The segments after the one `reader` reads.
        var remainingSegments: ArraySlice<HTTPBodySegment> = []
        let onSent: (@Sendable (Int) -> Void)?
        /// The size of the chunk handed out last: asking for the next one means it went out.
        var unreported = 0

        package mutating func next() async throws -> Data? {
            if unreported > 0 {
                onSent?(unreported)
                unreported = 0
            }
            var chunk = try await nextFromReader()
            // At the end of a segment, go on with the next non-empty one.
            while chunk == nil, let segment = remainingSegments.popFirst() {
                reader = Self.reader(for: segment)
                chunk = try await nextFromReader()
            }
            unreported = chunk?.count ?? 0
            return chunk
        }

        static func reader(for segment: HTTPBodySegment) -> Reader {
            switch segment {
            case .data(let data): .data(data, offset: data.startIndex)
            case .file(let url): .file(FileChunks(url: url).makeAsyncIterator())
            }
        }

        private mutating func nextFromReader() async throws -> Data? {
            let chunk: Data?
            switch reader {
            case .data(let data, let offset):
                guard offset < data.endIndex else { return nil }
                let end = Swift.min(offset + HTTPBodyChunks.chunkSize, data.endIndex)
                chunk = data[offset..<end]
                reader = .data(data, offset: end)
            case .file(var iterator):
                chunk = try await iterator.next()
                reader = .file(iterator)
            case .stream(var iterator):
                chunk = try await iterator.next()
                reader = .stream(iterator)
            }
            return chunk
        }
    }

    package func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .data(let data):
            return AsyncIterator(reader: .data(data, offset: data.startIndex), onSent: onSent)
        case .file(let file):
            return AsyncIterator(reader: .file(file.makeAsyncIterator()), onSent: onSent)
        case .stream(let stream):
            return AsyncIterator(reader: .stream(stream.makeAsyncIterator()), onSent: onSent)
        case .segments(let segments):
            var iterator = AsyncIterator(reader: .data(Data(), offset: 0), onSent: onSent)
            iterator.remainingSegments = segments[...]
            return iterator
        }
    }
}

extension HTTPBodyChunks {
    /// The chunks of `body`, each reported to `onSent` once the next one (or the end) is asked for.
    ///
    /// - Throws: ``HTTPError/unreadableBody(_:)`` for a file that cannot be read,
    ///   ``HTTPError/bodyNotReplayable`` for a stream that was already sent.
    package init(_ body: HTTPRequestBody, reporting onSent: (@Sendable (Int) -> Void)?) throws(HTTPError) {
        switch body {
        case .data(let data):
            self.init(length: data.count, source: .data(data), onSent: onSent)
        case .file(let url):
            let file = FileChunks(url: url, chunkSize: Self.chunkSize)
            self.init(length: try file.size(), source: .file(file), onSent: onSent)
        case .stream(let stream):
            self.init(length: stream.length, source: .stream(try stream.take()), onSent: onSent)
        case .segments(let segments):
            self.init(length: try segments.length(), source: .segments(segments), onSent: onSent)
        }
    }
}

extension HTTPRequestBody {
    /// The body as chunks for a transport to send, whatever its source, at most 64 KiB each so
    /// that progress moves in steps a person can see.
    ///
    /// - Parameter onSent: called with each chunk's size once the next chunk (or the end) is
    ///   asked for, that is once the transport has written it.
    /// - Throws: ``HTTPError/Code/unreadableBody`` for a file that cannot be read,
    ///   ``HTTPError/Code/bodyNotReplayable`` for a stream that was already sent.
    public func chunks(reporting onSent: (@Sendable (Int) -> Void)? = nil) throws(HTTPError)
        -> some AsyncSequence<Data, any Error> & Sendable
    {
        try HTTPBodyChunks(self, reporting: onSent)
    }

    /// The length in bytes when known without sending: data, files, streams that declare it.
    public var knownLength: Int? {
        switch self {
        case .data(let data): data.count
        case .file(let url): try? FileChunks(url: url).size()
        case .stream(let stream): stream.length
        case .segments(let segments): try? segments.length()
        }
    }
}
