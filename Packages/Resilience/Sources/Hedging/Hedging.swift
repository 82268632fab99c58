import Foundation
import JewzHTTPCore

/// Hedged requests for idempotent calls, as Polly's hedging strategy and Google's "tail at
/// scale" describe: when an attempt has not answered after a delay — a fixed one, or the
/// latency most of the origin's recent answers came within — a second attempt goes out beside
/// it; the first answer wins and the others are cancelled. A slow replica or a lost packet then
/// costs the call the delay, not its whole timeout.
///
/// Only calls that are safe to send twice are hedged: an idempotent method, or a request that
/// carries an `Idempotency-Key`, with a body that can be sent again. An attempt that fails
/// starts the next at once; an answer with a status in ``Configuration/hedgedStatusCodes`` (a
/// 503 from one overloaded replica) waits for the others and wins only when none does better.
///
/// A network middleware, first of them: each attempt then goes through the breaker, bulkhead
/// and rate limiter after it as a call of its own, a cache hit needs no hedge, and a race that
/// fails goes to the retry policy. Identical GETs coalesced (``/JewzHTTPCore/HTTPSession/Configuration-swift.struct/coalescesIdenticalGETs``)
/// would share the slow exchange: a session that hedges leaves that off.
///
/// ```swift
/// let hedging = Hedging(.init(delay: .percentile(0.95, minimum: .milliseconds(20)), maximumAttempts: 2))
/// let session = HTTPSession(configuration: .init { $0.networkMiddleware = [hedging, CircuitBreaker()] })
/// ```
///
/// A call can turn it off or change it (``ResilienceOptions/hedging``). Each hedge sent is
/// counted (`jewz.hedging.attempts`), and each call a hedge won (`jewz.hedging.wins`), with the
/// origin, through the metrics system the program bootstrapped.
public struct Hedging: HTTPMiddleware {
    /// When to send another attempt, and how many at most.
    public struct Configuration: Sendable {
        /// How long an attempt goes unanswered before the next goes out.
        public var delay: Delay
        /// The most attempts of one call, the first included; 1 turns hedging off.
        public var maximumAttempts: Int
        /// Statuses that do not end the race while another attempt may still answer.
        public var hedgedStatusCodes: Set<Int>

        /// A configuration: a second attempt after the origin's 95th-percentile latency.
        public init(
            delay: Delay = .percentile(0.95, minimum: .milliseconds(10)), maximumAttempts: Int = 2,
            hedgedStatusCodes: Set<Int> = [502, 503, 504]
        ) {
            self.delay = delay
            self.maximumAttempts = max(maximumAttempts, 1)
            self.hedgedStatusCodes = hedgedStatusCodes
        }

        /// No hedging: one attempt, as a session without the stage sends.
        public static let off = Configuration(maximumAttempts: 1)
    }

    /// How long an attempt goes unanswered before the next goes out.
    public enum Delay: Sendable, Hashable {
        /// Always this long.
        case fixed(Duration)
        /// The latency within which this share (0.95 for the 95th percentile) of the origin's
        /// recent answers came, never less than `minimum`; `minimum` until the origin has
        /// answered enough calls to tell.
        case percentile(Double, minimum: Duration)
    }

    /// The configuration it was made with.
    public let configuration: Configuration
    private let latencies: LatencyBook
    private let clock = HedgeClock()

    /// `hedging`, as the stage events and `jewz -v` call it.
    public var name: String { "hedging" }

    /// A stage that hedges as `configuration` says.
    public init(_ configuration: Configuration = .init()) {
        self.configuration = configuration
        latencies = LatencyBook()
    }

    /// How long an attempt to `origin` (`https://api.example.com`) waits before the next goes
    /// out, as things stand.
    public func delay(for origin: String) -> Duration {
        delay(configuration.delay, origin: URL(string: origin)?.origin ?? origin)
    }

    /// Sends `request`, and another attempt beside it each time the last goes unanswered for
    /// the delay, up to the maximum; returns the first answer and cancels the other attempts.
    ///
    /// - Throws: the last attempt's error when every attempt failed; ``/JewzHTTPCore/HTTPError/Code/cancelled``.
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let settings = next.options.resilience.hedging ?? configuration
        let origin = request.url.origin
        guard settings.maximumAttempts > 1, Self.isSafeToSendTwice(request) else {
            return try await measured(request, next: next, origin: origin)
        }
        let race = HedgeRace(settings: settings, delay: delay(settings.delay, origin: origin), origin: origin, clock: clock)
        return try await race.run { try await measured(request, next: next, origin: origin) }
    }

    /// Whether sending `request` twice does what sending it once does.
    static func isSafeToSendTwice(_ request: HTTPRequest) -> Bool {
        (request.method.isIdempotent || request.headers.contains("Idempotency-Key")) && request.hasReplayableBody
    }

    /// One attempt, its latency noted for the origin when it answers.
    private func measured(_ request: HTTPRequest, next: HTTPNext, origin: String) async throws -> HTTPResponse {
        let start = ContinuousClock.now
        let response = try await next(request)
        latencies.record(ContinuousClock.now - start, for: origin)
        return response
    }

    private func delay(_ delay: Delay, origin: String) -> Duration {
        switch delay {
        case .fixed(let duration): max(duration, .zero)
        case .percentile(let share, let minimum): max(latencies.percentile(share, for: origin) ?? minimum, minimum)
        }
    }
}
