import Foundation
import JewzLocking

/// Hands a streamed body from the task that receives it (an exchange's, or one reading a
/// sequence a middleware made) to its reader: the head once, then body chunks through a buffer
/// of at most ``highWaterMark`` bytes; past it the producer waits, and so does the connection.
///
/// The one buffer between the exchange and the reader: the producer appends the bytes of each
/// part it decodes to the chunk in the making (``append(_:)``) and hands it over when its
/// transport has delivered a batch (``flush()``), so a waiting reader wakes once per batch,
/// not once per part; a reader that asks meanwhile takes what is there.
final class ResponseBodyChannel: Sendable {
    /// The most bytes held for a consumer that reads slower than the network delivers.
    static let highWaterMark = 1 << 20

    /// The most bytes the chunk in the making gathers before it is handed over anyway.
    static let batchLimit = 256 << 10

    private struct State {
        var head: Result<HTTPResponse, any Error>?
        /// Whether the body of the head follows through this channel, rather than being whole in it.
        var bodyFollows = false
        var headWaiter: CheckedContinuation<HTTPResponse, any Error>?
        var chunks: [Data] = []
        var firstChunk = 0
        /// The chunk in the making: bytes appended since the last hand-over.
        var tail = Data()
        /// The bytes in ``chunks`` and ``tail``.
        var buffered = 0
        /// Set when the producer is done: `nil` error for a complete body.
        var end: (any Error)??
        var consumer: CheckedContinuation<Data?, any Error>?
        var producer: CheckedContinuation<Void, any Error>?
        var abandoned = false
    }

    private let state = Mutex(State())
    /// Stops the transfer when the consumer goes away.
    private let onAbandon: @Sendable () -> Void

    init(onAbandon: @escaping @Sendable () -> Void) {
        self.onAbandon = onAbandon
    }

    /// Whether the head went to the consumer: from then on the run cannot be retried.
    var hasDeliveredHead: Bool {
        state.withLock { if case .success? = $0.head { true } else { false } }
    }

    // MARK: Producer

    /// Whether the head handed over says its body follows through this channel; `false` for a
    /// response whole in its head, or before the head.
    var bodyFollowsHead: Bool {
        state.withLock { $0.bodyFollows }
    }

    /// Hands the response's head to the consumer; `bodyFollows` when its body comes through
    /// this channel, `false` when the response is whole.
    func deliverHead(_ response: HTTPResponse, bodyFollows: Bool) {
        let waiter = state.withLock { state in
            state.head = .success(response)
            state.bodyFollows = bodyFollows
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: response)
    }

    /// Adds `bytes` to the chunk in the making; it is handed over at ``flush()``, or once it
    /// holds ``batchLimit`` bytes.
    ///
    /// - Throws: ``HTTPError/streamAbandoned`` when nobody will read it.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        let handOver = try state.withLock { state -> (CheckedContinuation<Data?, any Error>, Data)? in
            if state.abandoned { throw HTTPError.streamAbandoned }
            state.tail.append(contentsOf: bytes)
            state.buffered += bytes.count
            return state.tail.count >= Self.batchLimit ? Self.handOverTail(&state) : nil
        }
        if let (consumer, chunk) = handOver { consumer.resume(returning: chunk) }
    }

    /// Hands the chunk in the making to the consumer: the end of a batch.
    func flush() {
        let handOver = state.withLock { Self.handOverTail(&$0) }
        if let (consumer, chunk) = handOver { consumer.resume(returning: chunk) }
    }

    /// Queues a whole chunk for the consumer, as it is: for a producer whose chunks are
    /// batches already (a sequence a middleware made).
    ///
    /// - Throws: ``HTTPError/streamAbandoned`` when nobody will read it.
    func enqueue(_ chunk: Data) throws {
        let consumer = try state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            if state.abandoned { throw HTTPError.streamAbandoned }
            if let consumer = state.consumer {
                state.consumer = nil
                return consumer
            }
            state.chunks.append(chunk)
            state.buffered += chunk.count
            return nil
        }
        consumer?.resume(returning: chunk)
    }

    /// Moves the tail into the queue, or returns it with the consumer waiting for it.
    private static func handOverTail(_ state: inout State) -> (CheckedContinuation<Data?, any Error>, Data)? {
        guard !state.tail.isEmpty else { return nil }
        let chunk = state.tail
        state.tail = Data()
        if let consumer = state.consumer {
            state.consumer = nil
            state.buffered -= chunk.count
            return (consumer, chunk)
        }
        state.chunks.append(chunk)
        return nil
    }

    /// Returns when the buffer is below the high-water mark.
    ///
    /// - Throws: ``HTTPError/streamAbandoned``.
    func waitForDemand() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = state.withLock { state -> Result<Void, any Error>? in
                if state.abandoned { return .failure(HTTPError.streamAbandoned) }
                if state.buffered < Self.highWaterMark { return .success(()) }
                state.producer = continuation
                return nil
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    /// Ends the stream: the consumer reads the rest, then the end or `error`. Before the head,
    /// the caller waiting for it gets `error`.
    func finish(with error: (any Error)?) {
        flush()
        let (headWaiter, consumer, value) = state.withLock { state in
            state.end = .some(error)
            let headWaiter = state.headWaiter
            state.headWaiter = nil
            if state.head == nil { state.head = .failure(error ?? HTTPError.streamAbandoned) }
            let consumer = state.consumer
            state.consumer = nil
            return (headWaiter, consumer, state.head)
        }
        if let headWaiter, let value { headWaiter.resume(with: value) }
        if let consumer {
            if let error { consumer.resume(throwing: error) } else { consumer.resume(returning: nil) }
        }
    }

    // MARK: Consumer

    func head() async throws -> HTTPResponse {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<HTTPResponse, any Error>? in
                if let head = state.head { return head }
                state.headWaiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// The next chunk, `nil` at the end.
    func next() async throws -> Data? {
        try await withCheckedThrowingContinuation { continuation in
            let (ready, producer) = state.withLock { state -> (Result<Data?, any Error>?, CheckedContinuation<Void, any Error>?) in
                if let chunk = Self.dequeue(&state) {
                    state.buffered -= chunk.count
                    var producer: CheckedContinuation<Void, any Error>?
                    if state.buffered < Self.highWaterMark {
                        producer = state.producer
                        state.producer = nil
                    }
                    return (.success(chunk), producer)
                }
                if case .some(let end) = state.end {
                    return (end.map { .failure($0) } ?? .success(nil), nil)
                }
                if state.abandoned { return (.failure(HTTPError.streamAbandoned), nil) }
                state.consumer = continuation
                return (nil, nil)
            }
            producer?.resume()
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// The first queued chunk; else the one in the making, as far as it got (the reader is
    /// awake already, it need not wait for the batch's end); `nil` when there is nothing.
    private static func dequeue(_ state: inout State) -> Data? {
        if state.firstChunk < state.chunks.count {
            let chunk = state.chunks[state.firstChunk]
            state.chunks[state.firstChunk] = Data()
            state.firstChunk += 1
            if state.firstChunk == state.chunks.count {
                state.chunks.removeAll(keepingCapacity: true)
                state.firstChunk = 0
            } else if state.firstChunk >= 256 {
                state.chunks.removeFirst(state.firstChunk)
                state.firstChunk = 0
            }
            return chunk
        }
        guard !state.tail.isEmpty else { return nil }
        defer { state.tail = Data() }
        return state.tail
    }

    /// The consumer stopped reading (dropped the body or was cancelled): the producer stops.
    func abandon() {
        let (finished, producer, consumer) = state.withLock { state in
            let finished = state.end != nil
            state.abandoned = true
            state.chunks = []
            state.firstChunk = 0
            state.tail = Data()
            state.buffered = 0
            defer {
                state.producer = nil
                state.consumer = nil
            }
            return (finished, state.producer, state.consumer)
        }
        producer?.resume(throwing: HTTPError.streamAbandoned)
        consumer?.resume(throwing: CancellationError())
        if !finished { onAbandon() }
    }
}
