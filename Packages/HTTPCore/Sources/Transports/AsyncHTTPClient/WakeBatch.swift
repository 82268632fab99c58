import JewzLocking
import NIOCore

/// Resumes the tasks an event loop wakes during one pass over its ready connections together,
/// once the pass is over, instead of one by one as each response arrives.
///
/// Why: a task woken in the middle of the pass runs on a thread of the cooperative pool, which
/// finishes it before the event loop has read the next response, finds nothing else to do and
/// goes to sleep, to be woken again for the next one. Woken together, the tasks find each other
/// queued, and a pool thread sleeps about half as often per request.
final class WakeBatch: Sendable {
    private let eventLoop: any EventLoop
    /// Touched on the event loop only; the lock is never contended.
    private let pending = Mutex<[CheckedContinuation<Void, Never>]>([])

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Resumes `continuation` at the end of the event loop's current pass, or at once when
    /// called from another thread.
    func resume(_ continuation: CheckedContinuation<Void, Never>) {
        guard eventLoop.inEventLoop else {
            continuation.resume()
            return
        }
        let isFirst = pending.withLock { pending in
            pending.append(continuation)
            return pending.count == 1
        }
        // Tasks given to `execute` run after the pass over the ready channels.
        if isFirst { eventLoop.execute { self.flush() } }
    }

    private func flush() {
        let continuations = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        for continuation in continuations { continuation.resume() }
    }
}
