import AsyncHTTPClient
import Foundation
import JewzLocking
import NIOCore
import NIOHTTP1
import struct Synchronization.Atomic

/// One exchange on AsyncHTTPClient's delegate API, handed over to the task that awaits it.
///
/// AsyncHTTPClient calls the delegate on an event loop: the head, each body part, the end or an
/// error. The awaiting task takes them with ``next()``; parts that arrive while it is busy wait
/// here, up to ``bufferLimit`` bytes, after which AsyncHTTPClient is asked to read no further
/// until the task catches up (so a slow consumer slows the connection, not fills memory).
///
/// Why the delegate API rather than `execute(_:deadline:)`: it gives a handle that cancels the
/// exchange from any thread (``cancel()``), which lets ``IdleWatchdog`` end a stalled exchange
/// without asking AsyncHTTPClient for a read timeout (a timer scheduled and moved on every read,
/// 15 allocations per request), and a small response reaches the task in one hop.
final class ClientExchange: HTTPClientResponseDelegate, HTTPExchangeCancelling {
    typealias Response = Void

    /// The most body bytes held for a task that has not taken them yet.
    static let bufferLimit = 512 << 10

    /// What the awaiting task takes next.
    enum Event {
        /// The final response's head, and the URL that answered it (after redirects).
        case head(HTTPResponseHead, url: URL?)
        /// Body parts in arrival order.
        case body([ByteBuffer])
        /// The response is complete.
        case end
    }

    private struct State {
        var head: HTTPResponseHead?
        var headTaken = false
        /// The request the last response head answered.
        var url: URL?
        /// An array rather than a `CircularBuffer`, whose every empty value allocates 16 slots:
        /// the parts are handed over whole, and an empty array costs nothing.
        var parts: [ByteBuffer] = []
        var buffered = 0
        var finished = false
        var failure: (any Error)?
        var waiter: CheckedContinuation<Void, Never>?
        /// Completed when the task has taken the buffered parts: AsyncHTTPClient reads no more until then.
        var withheldDemand: EventLoopPromise<Void>?
        var task: HTTPClient.Task<Void>?
        var cancelRequested = false
        var timedOut = false

        var hasNews: Bool { (head != nil && !headTaken) || !parts.isEmpty || finished || failure != nil }
    }

    private let state = Mutex(State())
    private let onBodySent: (@Sendable (Int) -> Void)?
    /// When something last moved on this exchange, in `NIODeadline` nanoseconds; read by the watchdog.
    private let lastActivity = Atomic<UInt64>(NIODeadline.now().uptimeNanoseconds)
    /// Whether the request's head went out: a connection was made. Read to tell a failure
    /// while connecting from one while waiting for the answer.
    let hasSentRequestHead = Atomic(false)
    /// Whether the exchange waits for its consumer rather than the network: not idle then.
    /// Written under the state's lock, with the withheld demand it mirrors.
    private let waitsForConsumer = Atomic(false)

    /// Resumes the awaiting task with the others its event loop woke, when there is one.
    private let wakes: WakeBatch?

    /// The request's own idle timeout in nanoseconds; `nil` keeps the watchdog's.
    let idleLimit: UInt64?

    init(onBodySent: (@Sendable (Int) -> Void)?, wakes: WakeBatch?, idleLimit: UInt64? = nil) {
        self.onBodySent = onBodySent
        self.wakes = wakes
        self.idleLimit = idleLimit
    }

    // MARK: Control

    /// Keeps AsyncHTTPClient's handle, so that ``cancel()`` can reach the exchange, and ends
    /// the exchange when the task fails: AsyncHTTPClient fails a task for some errors (a
    /// redirect loop, too many redirects) without calling ``didReceiveError(task:_:)``, and
    /// the awaiting task would otherwise wait for that call forever.
    func attach(_ task: HTTPClient.Task<Void>) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.cancelRequested
        }
        task.futureResult.whenFailure { error in self.fail(with: error) }
        if cancelNow { task.cancel() }
    }

    /// Ends the exchange from any thread; the awaiting task then throws.
    func cancel() {
        let task = state.withLock { state in
            state.cancelRequested = true
            return state.task
        }
        task?.cancel()
    }

    /// Whether `error`, which ended the exchange, is AsyncHTTPClient dropping a request it had
    /// not sent — the connection it was given began to close first (a GOAWAY) — rather than a
    /// cancel of ours: AsyncHTTPClient reports both as `cancelled`.
    func wasDroppedUnsent(by error: any Error) -> Bool {
        guard let error = error as? HTTPClientError, error == .cancelled, !hasSentRequestHead.load(ordering: .relaxed) else { return false }
        return state.withLock { !$0.cancelRequested && !$0.timedOut }
    }

    /// Ends the exchange as timed out: nothing moved for longer than the session allows. The
    /// awaiting task is woken here, not by AsyncHTTPClient's answer to the cancel, which does
    /// not come for a task that has already ended.
    func timeOut() {
        state.withLock { $0.timedOut = true }
        fail(with: HTTPError.timedOut)
        cancel()
    }

    /// Whether nothing moved for longer than the exchange's limit (`limit` unless the request
    /// set its own) while it waited for the network.
    func isIdle(now: UInt64, limit: UInt64) -> Bool {
        let limit = idleLimit ?? limit
        return isIdle(since: now > limit ? now - limit : 0)
    }

    /// Whether nothing moved since `threshold` while the exchange waited for the network.
    ///
    /// Reads the flag first, acquiring: an exchange that just stopped waiting for its consumer
    /// is then seen with the activity stamped before the flag was cleared, never the stale
    /// stamp from before the wait (which would end a slow reader's exchange as idle).
    func isIdle(since threshold: UInt64) -> Bool {
        !waitsForConsumer.load(ordering: .acquiring) && lastActivity.load(ordering: .relaxed) < threshold
    }

    private func touch() {
        lastActivity.store(NIODeadline.now().uptimeNanoseconds, ordering: .relaxed)
    }

    // MARK: Consumer

    /// The next event, waiting for it when none has arrived.
    ///
    /// - Throws: the error that ended the exchange (``HTTPError/timedOut`` when the watchdog
    ///   ended it), after the parts that arrived before it.
    nonisolated(nonsending) func next() async throws -> Event {
        while true {
            let (event, demand) = try state.withLock { state -> (Event?, EventLoopPromise<Void>?) in
                if let head = state.head, !state.headTaken {
                    state.headTaken = true
                    return (.head(head, url: state.url), nil)
                }
                if !state.parts.isEmpty {
                    let parts = state.parts
                    state.parts = []
                    state.buffered = 0
                    let demand = state.withheldDemand
                    if demand != nil {
                        state.withheldDemand = nil
                        // Stamped before the flag is cleared: see `isIdle(since:)`.
                        touch()
                        waitsForConsumer.store(false, ordering: .releasing)
                    }
                    return (.body(parts), demand)
                }
                if let failure = state.failure { throw state.timedOut ? HTTPError.timedOut : failure }
                if state.finished { return (.end, nil) }
                return (nil, nil)
            }
            demand?.succeed()
            if let event { return event }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.hasNews { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    /// Records what arrived and wakes the awaiting task, if it waits.
    private func update(_ change: (inout State) -> Void) {
        let waiter = state.withLock { state in
            change(&state)
            defer { state.waiter = nil }
            return state.waiter
        }
        guard let waiter else { return }
        if let wakes { wakes.resume(waiter) } else { waiter.resume() }
    }

    // MARK: HTTPClientResponseDelegate (on the task's event loop)

    func didSendRequestHead(task: HTTPClient.Task<Void>, _ head: HTTPRequestHead) {
        hasSentRequestHead.store(true, ordering: .relaxed)
        touch()
    }

    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        touch()
        onBodySent?(part.readableBytes)
    }

    func didSendRequest(task: HTTPClient.Task<Void>) {
        touch()
    }

    func didVisitURL(task: HTTPClient.Task<Void>, _ request: HTTPClient.Request, _ head: HTTPResponseHead) {
        state.withLock { $0.url = request.url }
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        touch()
        update { $0.head = head }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        touch()
        var demand: EventLoopPromise<Void>?
        update { state in
            // A second part means a body that arrives in many: room for a batch at once, rather
            // than growing 2, 4, 8… (a small response's one part takes a one-element array).
            if state.parts.count == 1 { state.parts.reserveCapacity(16) }
            state.parts.append(buffer)
            state.buffered += buffer.readableBytes
            if state.buffered >= Self.bufferLimit {
                let promise = task.eventLoop.makePromise(of: Void.self)
                state.withheldDemand = promise
                waitsForConsumer.store(true, ordering: .relaxed)
                demand = promise
            }
        }
        return demand?.futureResult ?? task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        update { $0.finished = true }
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        fail(with: error)
    }

    /// Records the error that ends the exchange (the first one counts) and wakes the awaiting
    /// task; a connection waiting for the task to catch up is let go.
    private func fail(with error: any Error) {
        var withheld: EventLoopPromise<Void>?
        update { state in
            // AsyncHTTPClient ends a response of 300 or more that arrived whole while the
            // request body was still being written by cancelling that body, and fails the task
            // with `requestStreamCancelled` instead of calling `didFinishRequest`: the
            // response is complete.
            if state.head != nil || state.headTaken, let error = error as? HTTPClientError, error == .requestStreamCancelled {
                state.finished = true
            } else if state.failure == nil, !state.finished {
                state.failure = error
            }
            withheld = state.withheldDemand
            state.withheldDemand = nil
            touch()
            waitsForConsumer.store(false, ordering: .releasing)
        }
        withheld?.fail(error)
    }
}
