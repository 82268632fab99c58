import Foundation
import JewzLocking

/// Hands a streamed body from the task that receives it (an exchange's, or one reading a
/// sequence a middleware made) to its reader: the head once, then body chunks through a buffer
/// of at most ``highWaterMark`` bytes; past it the producer waits, and so does the connection.
final class ResponseBodyChannel: Sendable {
    /// The most bytes held for a consumer that reads slower than the network delivers.
    static let highWaterMark = 1 << 20

    private struct State {
        var head: Result<HTTPResponse, any Error>?
        var headWaiter: CheckedContinuation<HTTPResponse, any Error>?
        var chunks: [Data] = []
        var firstChunk = 0
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

    func deliverHead(_ response: HTTPResponse) {
        let waiter = state.withLock { state in
            state.head = .success(response)
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: response)
    }

    /// Queues a chunk for the consumer.
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

    /// The consumer stopped reading (dropped the body or was cancelled): the producer stops.
    func abandon() {
        let (finished, producer, consumer) = state.withLock { state in
            let finished = state.end != nil
            state.abandoned = true
            state.chunks = []
            state.firstChunk = 0
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
