import JewzLocking
import NIOCore

/// Ends exchanges that have sent and received nothing for longer than the idle timeout: the
/// transport's, or the request's own (an exchange waiting for its reader does not count as idle).
///
/// One timer per event loop (per ``ClientLane``) looks at every exchange in flight a few
/// times per timeout, so a request costs an insertion and a removal here instead of a timer
/// of its own, scheduled and moved on every read. An exchange is ended at most
/// ``checksPerTimeout``th of its timeout late. The timer runs only while exchanges are watched,
/// as often as the shortest timeout among them needs.
final class IdleWatchdog: Sendable {
    /// How often the timer looks, per timeout.
    static let checksPerTimeout: UInt64 = 8
    /// The shortest interval between checks.
    static let minimumInterval: UInt64 = 1_000_000

    private struct State {
        var watched: [ObjectIdentifier: ClientExchange] = [:]
        /// The interval of the running timer; `nil` when none runs.
        var interval: UInt64?
        /// Which timer is current: a timer replaced by a faster one stops at its next check.
        var generation = 0
    }

    private let limit: UInt64
    private let eventLoop: any EventLoop
    private let state = Mutex(State())

    init(timeout: Duration, eventLoop: any EventLoop) {
        limit = UInt64(max(TimeAmount(timeout).nanoseconds, 1))
        self.eventLoop = eventLoop
    }

    func watch(_ exchange: ClientExchange) {
        let wanted = Self.interval(for: exchange.idleLimit ?? limit)
        let start: (UInt64, Int)? = state.withLock { state in
            state.watched[ObjectIdentifier(exchange)] = exchange
            if let running = state.interval, running <= wanted { return nil }
            state.interval = wanted
            state.generation += 1
            return (wanted, state.generation)
        }
        if let (interval, generation) = start { scheduleCheck(in: interval, generation: generation) }
    }

    func unwatch(_ exchange: ClientExchange) {
        state.withLock { _ = $0.watched.removeValue(forKey: ObjectIdentifier(exchange)) }
    }

    private static func interval(for limit: UInt64) -> UInt64 {
        max(limit / checksPerTimeout, minimumInterval)
    }

    private func scheduleCheck(in interval: UInt64, generation: Int) {
        eventLoop.scheduleTask(in: .nanoseconds(Int64(clamping: interval))) { self.check(generation: generation) }
    }

    private func check(generation: Int) {
        let now = NIODeadline.now().uptimeNanoseconds
        let (expired, next) = state.withLock { state -> ([ClientExchange], UInt64?) in
            guard state.generation == generation else { return ([], nil) }
            let expired = state.watched.values.filter { $0.isIdle(now: now, limit: limit) }
            if state.watched.isEmpty {
                state.interval = nil
            } else {
                // Slows down again once the exchanges with short timeouts are gone.
                state.interval = state.watched.values.lazy.map { Self.interval(for: $0.idleLimit ?? self.limit) }.min()
            }
            return (expired, state.interval)
        }
        for exchange in expired { exchange.timeOut() }
        if let next { scheduleCheck(in: next, generation: generation) }
    }
}
