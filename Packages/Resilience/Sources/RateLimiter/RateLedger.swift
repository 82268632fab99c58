import Foundation
import JewzHTTPCore
import JewzLocking

/// The turns a ``RateLimiter`` has given each origin, the limits it learned, and until when a
/// server asked it to hold off.
///
/// A turn is kept at the instant its call is to leave; while the call is on its way it counts
/// as now (the server may see it at any moment); once its answer came back, at that instant
/// (in ``AnswerLog``, in order):
/// the server saw the call no later, so a window counted from it never holds more than the
/// server counts, however long the calls took to arrive. A call that waited checks its turn
/// again when it comes (``confirm(_:)``), as the calls before it may not have been answered yet.
final class RateLedger: Sendable {
    /// A call's place: which turn it holds, and when it may go.
    struct Reservation {
        let origin: String
        let number: Int
        let at: ContinuousClock.Instant
    }

    /// A turn whose answer has not come back: its call waits for it, or is on its way.
    private struct Turn {
        var number: Int
        var at: ContinuousClock.Instant
        /// Whether the call left.
        var onItsWay = false
    }

    private struct Origin {
        /// Whether a call has come back: until one has, a server that announces its limits has
        /// not been heard, and one call at a time goes.
        var answered = false
        var learned: [RateLimit] = []
        var pending: [Turn] = []
        var answers = AnswerLog()
        var heldUntil: ContinuousClock.Instant?
    }

    private struct State {
        var origins: [String: Origin] = [:]
        var nextNumber = 0
    }

    /// The most answers kept per origin, whatever the limits say, and while none is known: the
    /// calls made before an origin announces its limit count against it once it does.
    private static let maximumTurns = 10_000
    private static let turnsKeptUnlimited = 1000
    private static let horizonUnlimited: Duration = .seconds(60)
    /// The most origins kept: past it, the ones with no recent turn go first.
    private static let maximumOrigins = 1024

    private let configuration: RateLimiter.Configuration
    private let state = Mutex(State())

    init(configuration: RateLimiter.Configuration) {
        self.configuration = configuration
    }

    func limits(for origin: String) -> [RateLimit] {
        configuration.limits + (state.withLock { $0.origins[origin]?.learned } ?? [])
    }

    /// The next turn at `origin`, held for the call: the earliest instant at which every limit
    /// has room, not before an earlier call's turn nor a server's hold.
    ///
    /// - Throws: ``ResilienceError/Code-swift.struct/rateLimited`` when that is further than the
    ///   maximum wait; nothing is held then.
    func reserve(at origin: String, maximumWait: Duration? = nil) throws(ResilienceError) -> Reservation {
        let maximumWait = maximumWait.map { max($0, .zero) } ?? configuration.maximumWait
        let result: Result<Reservation, ResilienceError> = state.withLock { state in
            // Read under the lock, as every instant of the ledger is: answers are then kept in order.
            let now = ContinuousClock.now
            if state.origins[origin] == nil, state.origins.count >= Self.maximumOrigins { Self.evictIdle(&state.origins, at: now) }
            let number = state.nextNumber
            // In place: an entry copied out of the dictionary would copy its answers at each call.
            let result = reserve(number, in: &state.origins[origin, default: Origin()], origin: origin, now: now, maximumWait: maximumWait)
            if case .success = result { state.nextNumber += 1 }
            return result
        }
        return try result.get()
    }

    private func reserve(
        _ number: Int, in entry: inout Origin, origin: String, now: ContinuousClock.Instant, maximumWait: Duration
    ) -> Result<Reservation, ResilienceError> {
        let limits = configuration.limits + entry.learned
        let longest = limits.map(\.paddedWindow).max() ?? Self.horizonUnlimited
        entry.answers.forget(before: now - max(longest, Self.horizonUnlimited), keepingAtMost: limits.isEmpty ? Self.turnsKeptUnlimited : Self.maximumTurns)
        let earliest = max(now, entry.heldUntil ?? now, entry.pending.map(\.at).max() ?? now)
        var turn = Self.turn(from: earliest, limits: limits, answers: entry.answers, others: entry.pending, now: now)
        if waitsForFirstAnswer(entry, others: entry.pending) { turn = max(turn, now + Self.firstAnswerPoll) }
        guard turn - now <= maximumWait else {
            return .failure(.rateLimited(origin: origin, until: turn, wait: turn - now))
        }
        entry.pending.append(Turn(number: number, at: turn, onItsWay: turn <= now))
        return .success(Reservation(origin: origin, number: number, at: turn))
    }

    /// Whether the call holding `reservation` may go now: `nil` when it may (its turn is kept
    /// at now, on its way), or the later instant its turn moved to, as calls before it are still
    /// on their way.
    func confirm(_ reservation: Reservation) -> ContinuousClock.Instant? {
        state.withLock { state in
            let now = ContinuousClock.now
            guard state.origins[reservation.origin] != nil else { return nil }
            return confirm(reservation.number, in: &state.origins[reservation.origin, default: Origin()], now: now)
        }
    }

    private func confirm(_ number: Int, in entry: inout Origin, now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        guard let index = entry.pending.firstIndex(where: { $0.number == number }) else { return nil }
        var others = entry.pending
        others.remove(at: index)
        var turn = Self.turn(
            from: max(now, entry.heldUntil ?? now), limits: configuration.limits + entry.learned, answers: entry.answers, others: others, now: now)
        if waitsForFirstAnswer(entry, others: others) { turn = max(turn, now + Self.firstAnswerPoll) }
        entry.pending[index].at = max(turn, now)
        entry.pending[index].onItsWay = turn <= now
        return turn > now ? turn : nil
    }

    /// Keeps the call of `reservation` at the instant its answer came, or drops its turn when
    /// it never left (`sent` false: cancelled while it waited).
    func finish(_ reservation: Reservation, sent: Bool) {
        state.withLock { state in
            let now = ContinuousClock.now
            guard state.origins[reservation.origin] != nil else { return }
            Self.finish(reservation.number, in: &state.origins[reservation.origin, default: Origin()], sent: sent, now: now)
        }
    }

    private static func finish(_ number: Int, in entry: inout Origin, sent: Bool, now: ContinuousClock.Instant) {
        guard let index = entry.pending.firstIndex(where: { $0.number == number }) else { return }
        entry.pending.remove(at: index)
        if sent {
            entry.answers.append(now)
            entry.answered = true
        }
    }

    /// How often a call waiting for an origin's first answer looks whether it came.
    private static let firstAnswerPoll: Duration = .milliseconds(10)

    /// Whether a call must wait for `entry`'s first answer: the limiter learns the servers'
    /// limits, none has come back yet, and another call is on its way.
    private func waitsForFirstAnswer(_ entry: Origin, others: [Turn]) -> Bool {
        configuration.learnsFromServers && !entry.answered && others.contains { $0.onItsWay }
    }

    /// The earliest instant from `earliest` (now or later) at which every limit has room beside
    /// the answers and the `others` pending, a call on its way counted at `now`.
    ///
    /// The answers are all at or before now, in order: a window's count of them is a search,
    /// not a pass over all of them, and only the last of them are looked at when a limit is full.
    private static func turn(
        from earliest: ContinuousClock.Instant, limits: [RateLimit], answers: AnswerLog, others: [Turn], now: ContinuousClock.Instant
    ) -> ContinuousClock.Instant {
        let pending = others.map { $0.onItsWay ? max($0.at, now) : $0.at }
        var turn = earliest
        // Each limit may push the turn later; a pass with no change settles it.
        for _ in 0...limits.count {
            var moved = false
            for limit in limits {
                let window = limit.paddedWindow
                let inWindow = pending.filter { $0 <= turn && turn - $0 < window }
                let answered = answers.count(after: turn - window)
                guard answered + inWindow.count >= limit.requests else { continue }
                let latest = (answers.last(min(answered, limit.requests)) + inWindow).sorted()
                turn = latest[latest.count - limit.requests] + window
                moved = true
            }
            if !moved { break }
        }
        return turn
    }

    /// Takes what `response` announces of `origin`'s limits: its policy, and a hold when it
    /// says nothing remains or asks to retry after a while.
    func learn(from response: HTTPResponse, origin: String) {
        let now = ContinuousClock.now
        let headers = response.headers
        let policies = headers["RateLimit-Policy"].map(RateLimit.policies(in:)) ?? []
        var hold: Duration?
        if [429, 503].contains(response.statusCode), let retryAfter = RetryPolicy.retryAfter(headers["Retry-After"]) {
            hold = retryAfter
        }
        if let exhausted = Self.exhaustedFor(headers) { hold = max(hold ?? .zero, exhausted) }
        guard !policies.isEmpty || hold != nil else { return }
        state.withLock { state in
            if !policies.isEmpty { state.origins[origin, default: Origin()].learned = policies }
            if let hold, hold > .zero {
                let until = max(state.origins[origin]?.heldUntil ?? now, now + min(hold, .seconds(3600)))
                state.origins[origin, default: Origin()].heldUntil = until
            }
        }
    }

    /// How long the server says nothing remains, when it says so: `RateLimit-Remaining: 0` with
    /// `RateLimit-Reset`, `RateLimit: …;r=0;t=S`, or the `X-RateLimit-` fields (a reset past a
    /// billion is a Unix time, as GitHub's).
    private static func exhaustedFor(_ headers: HTTPHeaderFields) -> Duration? {
        if let field = headers["RateLimit"], let parameters = Optional(field.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }),
            parameters.contains("r=0"), let reset = parameters.first(where: { $0.hasPrefix("t=") }).flatMap({ Int($0.dropFirst(2)) })
        {
            return .seconds(max(reset, 0))
        }
        for prefix in ["RateLimit-", "X-RateLimit-"] {
            guard headers["\(prefix)Remaining"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) == 0,
                let reset = headers["\(prefix)Reset"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
            else { continue }
            if reset > 1_000_000_000 { return .seconds(max(reset - Int(Date().timeIntervalSince1970), 0)) }
            return .seconds(max(reset, 0))
        }
        return nil
    }

    /// Drops the origins with no turn in their longest window and no hold.
    private static func evictIdle(_ origins: inout [String: Origin], at now: ContinuousClock.Instant) {
        origins = origins.filter { _, entry in
            entry.heldUntil.map { $0 > now } == true || !entry.pending.isEmpty || entry.answers.latest.map { now - $0 < .seconds(3600) } == true
        }
    }
}
