import Foundation
import JewzLocking
import struct Synchronization.Atomic

/// A response's body: bytes whole in memory, or a stream of chunks read once as they arrive
/// (content codings already undone).
///
/// ``HTTPSession/send(_:options:)`` returns whole bytes: ``data``, readable any number of
/// times. ``HTTPSession/stream(_:options:)`` returns a stream: at most about a megabyte waits
/// for a slow reader, beyond it the connection waits too, and dropping the body, or cancelling
/// the task that reads it, stops the transfer.
///
/// A middleware sees the body of every response, of whatever kind, and may read it, wrap it
/// (``map(_:)``, ``whenFinished(_:)``, ``withTrailers(_:)``) or replace it: the bytes then reach
/// memory, the file or the reader through what it made.
///
/// ```swift
/// let reportURL = URL(string: "https://example.com/report.csv")!
/// let report = try await session.stream(HTTPRequest(url: reportURL))
/// let bytes = try await report.body.collect(upTo: 8 << 20)   // refuses a larger body
/// ```
public struct HTTPResponseBody: AsyncSequence, Sendable {
    /// Where the chunks come from, and what runs once when they stop coming. Stops the
    /// transfer when the last copy of the body and its iterators are gone.
    final class Reader: Sendable {
        private enum Source: Sendable {
            case channel(ResponseBodyChannel)
            /// A body already whole, in memory or in a cache's file: ``stored``.
            case stored
            case transformed(Reader, @Sendable (Data) throws -> Data)
            /// One body's chunks, then another's.
            case joined(Reader, then: Reader)
            /// A download's body that goes on where a cut-off connection stopped it.
            case continued(ContinuedBody)
            /// A body whose chunks are copied, and whose end is marked, before the reader
            /// gets them: ``HTTPResponseBody/copying(each:atEnd:)``.
            case copied(Reader, each: @Sendable (Data) async -> Void, atEnd: @Sendable () async -> Void)
        }

        private let source: Source
        private let stored: Mutex<StoredBodyChunks>?
        /// Whether ``stored`` reads a file: its reads then wait on NIO's thread pool.
        private let storedInFile: Bool
        private let onFinish: (@Sendable ((any Error)?) -> Void)?
        private let trailers: (@Sendable () -> HTTPHeaderFields)?
        private let finished = Atomic(false)
        /// For ``Source/joined(_:then:)``: whether the first body has ended.
        private let firstEnded = Atomic(false)

        init(_ channel: ResponseBodyChannel) {
            source = .channel(channel)
            stored = nil
            storedInFile = false
            onFinish = nil
            trailers = nil
        }

        init(_ chunks: consuming StoredBodyChunks) {
            source = .stored
            storedInFile = chunks.isFile
            stored = Mutex(chunks)
            onFinish = nil
            trailers = nil
        }

        private init(_ source: Source, onFinish: (@Sendable ((any Error)?) -> Void)? = nil, trailers: (@Sendable () -> HTTPHeaderFields)? = nil) {
            self.source = source
            stored = nil
            storedInFile = false
            self.onFinish = onFinish
            self.trailers = trailers
        }

        func mapping(_ transform: @escaping @Sendable (Data) throws -> Data) -> Reader {
            Reader(.transformed(self, transform))
        }

        func finishing(with action: @escaping @Sendable ((any Error)?) -> Void) -> Reader {
            Reader(.transformed(self, { $0 }), onFinish: action)
        }

        func trailing(_ fields: @escaping @Sendable () -> HTTPHeaderFields) -> Reader {
            Reader(.transformed(self, { $0 }), trailers: fields)
        }

        func followed(by next: Reader) -> Reader {
            Reader(.joined(self, then: next))
        }

        convenience init(_ body: ContinuedBody) {
            self.init(.continued(body))
        }

        func copying(each copy: @escaping @Sendable (Data) async -> Void, atEnd end: @escaping @Sendable () async -> Void) -> Reader {
            Reader(.copied(self, each: copy, atEnd: end))
        }

        /// The fields the wrappers add once the body is read, innermost first.
        func trailingFields() -> HTTPHeaderFields {
            var fields: HTTPHeaderFields = [:]
            switch source {
            case .transformed(let base, _):
                fields = base.trailingFields()
            case .joined(let first, let second):
                fields = first.trailingFields()
                for field in second.trailingFields() { fields.add(field.value, for: field.name) }
            case .continued(let body):
                fields = body.trailingFields()
            case .copied(let base, _, _):
                fields = base.trailingFields()
            case .channel, .stored:
                break
            }
            if let trailers {
                for field in trailers() { fields.add(field.value, for: field.name) }
            }
            return fields
        }

        /// The next chunk, `nil` after the last.
        func next() async throws -> Data? {
            do {
                let chunk: Data?
                switch source {
                case .channel(let channel):
                    do {
                        chunk = try await withTaskCancellationHandler {
                            try await channel.next()
                        } onCancel: {
                            channel.abandon()
                        }
                    } catch let error as HTTPError where error.code == .streamAbandoned && Task.isCancelled {
                        // The reader's own task was cancelled: say so, as a cancelled read does.
                        throw CancellationError()
                    }
                case .stored:
                    chunk = try await readStored { try $0.next(waiting: $1) }
                case .transformed(let base, let transform):
                    chunk = try await base.next().map(transform)
                case .joined(let first, let second):
                    if !firstEnded.load(ordering: .relaxed), let head = try await first.next() {
                        chunk = head
                    } else {
                        firstEnded.store(true, ordering: .relaxed)
                        chunk = try await second.next()
                    }
                case .continued(let body):
                    chunk = try await body.next()
                case .copied(let base, let copy, let end):
                    chunk = try await base.next()
                    if let chunk { await copy(chunk) } else { await end() }
                }
                if chunk == nil { finish(nil) }
                return chunk
            } catch {
                finish(error)
                throw error
            }
        }

        /// The whole of an unwrapped stored body, read at once, when it is at most `limit`
        /// bytes; `nil` for any other body (it is read chunk by chunk).
        func storedRest(upTo limit: Int) async throws -> Data? {
            guard case .stored = source else { return nil }
            do {
                guard let whole = try await readStored({ try $0.rest(upTo: limit, waiting: $1) }) else { return nil }
                finish(nil)
                return whole
            } catch {
                finish(error)
                throw error
            }
        }

        /// What `read` takes from the stored chunks: at once when they are in memory or in the
        /// page cache, on NIO's thread pool when reading them would wait on the disk.
        private func readStored(_ read: @escaping @Sendable (inout StoredBodyChunks, _ waiting: Bool) throws -> Data?) async throws -> Data? {
            guard storedInFile else { return try stored?.withLock { try read(&$0, true) } ?? nil }
            return try await FileBytes.readInPlaceOrOnPool { waiting in try self.stored?.withLock { try read(&$0, waiting) } ?? nil }
        }

        private func finish(_ error: (any Error)?) {
            guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
            onFinish?(error)
        }

        deinit {
            if case .channel(let channel) = source { channel.abandon() }
            finish(HTTPError.streamAbandoned)
        }
    }

    /// What the body is; one field, as a response is moved through every stage's async frame.
    enum Content: Sendable {
        case bytes(Data)
        case stream(Reader)
    }

    let content: Content

    init(_ channel: ResponseBodyChannel) {
        content = .stream(Reader(channel))
    }

    init(_ content: Content) {
        self.content = content
    }

    /// A body whole in memory: how a middleware or a test makes one.
    public init(_ data: Data) {
        content = .bytes(data)
    }

    /// A body read from `chunks`, once, as the reader asks for it: how a middleware hands on a
    /// body it produces itself (decrypted, decompressed, from another source). The sequence is
    /// read in a task of its own, at most about a megabyte ahead of the reader; dropping the
    /// body cancels that task, and an error the sequence throws ends the body with it.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == Data {
        let pump = Mutex<Task<Void, Never>?>(nil)
        let channel = ResponseBodyChannel { pump.withLock { $0 }?.cancel() }
        pump.withLock { pump in
            pump = Task {
                do {
                    for try await chunk in chunks {
                        try await channel.waitForDemand()
                        try channel.enqueue(chunk)
                    }
                    channel.finish(with: nil)
                } catch {
                    channel.finish(with: error)
                }
            }
        }
        content = .stream(Reader(channel))
    }

    /// The bytes, when the body is whole in memory; `nil` for a stream (read it, or
    /// ``collect(upTo:)``).
    public var data: Data? {
        if case .bytes(let data) = content { data } else { nil }
    }

    /// Whether the body is a stream still to be read.
    package var isStream: Bool {
        if case .stream = content { true } else { false }
    }

    /// The reader of this body's chunks: a stream's own, or one over whole bytes (64 KiB at a
    /// time, so that a large body goes to a file or a reader in pieces).
    var reader: Reader {
        switch content {
        case .stream(let reader): reader
        case .bytes(let data): Reader(StoredBodyChunks(data))
        }
    }

    /// The fields the body's wrappers add once it has been read (``withTrailers(_:)``).
    package var trailingFields: HTTPHeaderFields {
        if case .stream(let reader) = content { reader.trailingFields() } else { [:] }
    }

    /// `length` bytes of the open `file` (a cache's stored body) from `offset`, read 64 KiB at
    /// a time at their positions: the file's name may be removed or given to another file
    /// meanwhile, and others may read the same handle.
    package init(contentsOf file: FileHandle, from offset: Int = 0, length: Int) {
        content = .stream(Reader(StoredBodyChunks(file: file, offset: offset, length: length)))
    }

    init(reader: Reader) {
        content = .stream(reader)
    }

    /// This body's chunks, then `next`'s: a stored start and the rest from the network.
    package func followed(by next: HTTPResponseBody) -> HTTPResponseBody {
        HTTPResponseBody(reader: reader.followed(by: next.reader))
    }

    /// Reads the body's chunks, once, in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: Reader

        /// The next chunk, or `nil` after the last.
        ///
        /// - Throws: the ``HTTPError`` that ended the transfer (a lost connection, a timeout,
        ///   a corrupt encoding), what a transform threw, or `CancellationError` when the
        ///   reading task is cancelled.
        public mutating func next() async throws -> Data? {
            try await reader.next()
        }
    }

    /// An iterator over the chunks: a stream can be iterated once, whole bytes any number of times.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: reader)
    }

    /// The body with each chunk passed through `transform` as it is read: to rewrite the bytes,
    /// or to look at them (return the chunk as it is). A transform that throws ends the body
    /// with its error.
    public func map(_ transform: @escaping @Sendable (Data) throws -> Data) -> HTTPResponseBody {
        HTTPResponseBody(reader: reader.mapping(transform))
    }

    /// The body, with `action` called once when it stops: at its end (`nil`), when reading it
    /// failed (the error), or when it was dropped unread (``HTTPError/Code/streamAbandoned``).
    public func whenFinished(_ action: @escaping @Sendable (_ error: (any Error)?) -> Void) -> HTTPResponseBody {
        HTTPResponseBody(reader: reader.finishing(with: action))
    }

    /// The body, with fields that `fields` makes once it has been read to its end — a digest of
    /// the bytes, a count — which the run adds to the response's headers after the body went
    /// to its file or reader, as HTTP trailers are.
    public func withTrailers(_ fields: @escaping @Sendable () -> HTTPHeaderFields) -> HTTPResponseBody {
        HTTPResponseBody(reader: reader.trailing(fields))
    }

    /// The body, with `copy` awaited on each chunk before the reader gets it and `end` awaited
    /// after the last, before the reader learns it was the last: how a cache writes a body to
    /// its files, away from the reader's thread, and has the entry in place once the reader
    /// has seen the end. `end` is not called for a body that fails or is dropped.
    package func copying(each copy: @escaping @Sendable (Data) async -> Void, atEnd end: @escaping @Sendable () async -> Void) -> HTTPResponseBody {
        HTTPResponseBody(reader: reader.copying(each: copy, atEnd: end))
    }

    /// The body's first bytes, up to `limit`: what is past them is left unread.
    ///
    /// - Throws: what ended the transfer before `limit` bytes.
    func leadingBytes(upTo limit: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            data.append(chunk.prefix(limit - data.count))
            if data.count == limit { break }
        }
        return data
    }

    /// The whole body in memory, refusing more than `limit` bytes: bytes as they are, a
    /// stream read to its end.
    ///
    /// - Throws: ``HTTPError/Code/responseTooLarge``, or what ended the transfer.
    public func collect(upTo limit: Int) async throws -> Data {
        if case .bytes(let data) = content {
            guard data.count <= limit else { throw HTTPError.responseTooLarge(limit: limit) }
            return data
        }
        let reader = reader
        // A cache's stored body, unwrapped: one read rather than a chunk at a time.
        if let whole = try await reader.storedRest(upTo: limit) { return whole }
        var data = Data()
        var chunks = AsyncIterator(reader: reader)
        while let chunk = try await chunks.next() {
            guard data.count + chunk.count <= limit else { throw HTTPError.responseTooLarge(limit: limit) }
            data.append(chunk)
        }
        return data
    }
}
