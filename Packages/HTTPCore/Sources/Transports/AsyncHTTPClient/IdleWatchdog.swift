import NIOCore
import Synchronization

/// Ends exchanges that have sent and received nothing for longer than the session's
/// `timeoutForRequest` (an exchange waiting for its reader does not count as idle).
///
/// One timer per event loop (per ``ClientLane``) looks at every exchange in flight a few
/// times per timeout, so a request costs an insertion and a removal here instead of a timer
/// of its own, scheduled and moved on every read. An exchange is ended at most
/// ``checksPerTimeout``th of the timeout late. The timer runs only while exchanges are watched.
final class IdleWatchdog: Sendable {
    /// How often the timer looks, per timeout.
    static let checksPerTimeout: Int64 = 8

    private struct State {
        var watched: [ObjectIdentifier: ClientExchange] = [:]
        var ticking = false
    }

    private let limit: UInt64
    private let interval: TimeAmount
    private let eventLoop: any EventLoop
    private let state = Mutex(State())

    init(timeout: Duration, eventLoop: any EventLoop) {
        let nanoseconds = max(TimeAmount(timeout).nanoseconds, 1)
        limit = UInt64(nanoseconds)
        interval = .nanoseconds(max(nanoseconds / Self.checksPerTimeout, 1_000_000))
        self.eventLoop = eventLoop
    }

    func watch(_ exchange: ClientExchange) {
        let start = state.withLock { state in
            state.watched[ObjectIdentifier(exchange)] = exchange
            defer { state.ticking = true }
            return !state.ticking
        }
        if start { scheduleCheck() }
    }

    func unwatch(_ exchange: ClientExchange) {
        state.withLock { _ = $0.watched.removeValue(forKey: ObjectIdentifier(exchange)) }
    }

    private func scheduleCheck() {
        eventLoop.scheduleTask(in: interval) { self.check() }
    }

    private func check() {
        let now = NIODeadline.now().uptimeNanoseconds
        let threshold = now > limit ? now - limit : 0
        let (expired, keepTicking) = state.withLock { state in
            let expired = state.watched.values.filter { $0.isIdle(since: threshold) }
            state.ticking = !state.watched.isEmpty
            return (expired, state.ticking)
        }
        for exchange in expired { exchange.timeOut() }
        if keepTicking { scheduleCheck() }
    }
}
