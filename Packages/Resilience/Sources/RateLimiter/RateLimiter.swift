import CoreMetrics
import Foundation
import JewzHTTPCore

/// A client-side rate limit per origin: calls to an origin are spaced so that no window holds
/// more than its limit allows, each waiting its turn in order, as a well-behaved client of a
/// rate-limited API does instead of collecting 429s.
///
/// The limits are those configured, and those each origin announces (draft-ietf-httpapi-
/// ratelimit-headers' `RateLimit-Policy`, in its early and later forms); a server's word that
/// nothing remains (`RateLimit-Remaining: 0` with `RateLimit-Reset`, the later `RateLimit:
/// …;r=0;t=S`, `X-RateLimit-Remaining`/`X-RateLimit-Reset`) or a `Retry-After` on a 429 or 503
/// holds the origin's calls until then; until an origin has answered once, one call at a time
/// goes to it, so that its announced limit is heard before a burst. A call that would wait longer than ``Configuration-swift.struct/maximumWait``
/// fails at once (``ResilienceError/Code-swift.struct/rateLimited``).
///
/// A network middleware: each attempt and redirect hop is a call to its origin; a cache hit is none.
/// Each call that waits is counted (`jewz.rate_limiter.waits`), and each refused
/// (`jewz.rate_limiter.rejections`), with the origin, through the metrics system the program
/// bootstrapped.
///
/// ```swift
/// let limiter = RateLimiter(.init(limits: [RateLimit(requests: 100, per: .seconds(60))]))
/// let session = HTTPSession(configuration: .init { $0.networkMiddleware = [limiter] })
/// ```
public struct RateLimiter: HTTPMiddleware {
    /// The limits it starts from, whether it learns the servers', and how long a call may wait.
    public struct Configuration: Sendable {
        /// The limits every origin gets, whatever it announces.
        public var limits: [RateLimit]
        /// Whether the limits and waits servers announce are followed too.
        public var learnsFromServers: Bool
        /// The longest a call waits for its turn; one that would wait longer fails at once.
        public var maximumWait: Duration

        /// A configuration: no limit of its own, the servers' learned, waits of up to 30 seconds.
        public init(limits: [RateLimit] = [], learnsFromServers: Bool = true, maximumWait: Duration = .seconds(30)) {
            self.limits = limits
            self.learnsFromServers = learnsFromServers
            self.maximumWait = max(maximumWait, .zero)
        }
    }

    /// The configuration it was made with.
    public let configuration: Configuration
    private let ledger: RateLedger

    /// `rate limiter`, as the stage events and `jewz -v` call it.
    public var name: String { "rate limiter" }

    /// A limiter with `configuration`.
    public init(_ configuration: Configuration = .init()) {
        self.configuration = configuration
        ledger = RateLedger(configuration: configuration)
    }

    /// The limits that apply to `origin` (`https://api.example.com`) now: the configured ones and
    /// those it announced.
    public func limits(for origin: String) -> [RateLimit] {
        ledger.limits(for: URL(string: origin)?.origin ?? origin)
    }

    /// Sends `request` at its origin's next turn, and learns from the response what the origin
    /// announces.
    ///
    /// - Throws: ``ResilienceError/Code-swift.struct/rateLimited`` when the turn is further than
    ///   the maximum wait (the call's own, ``ResilienceOptions/maximumRateLimitWait``, when it
    ///   sets one); `CancellationError` when the call is cancelled while it waits; what
    ///   the stages after it threw.
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let reservation: RateLedger.Reservation
        do {
            reservation = try ledger.reserve(at: request.url.origin, maximumWait: next.options.resilience.maximumRateLimitWait)
        } catch {
            Counter(label: "jewz.rate_limiter.rejections", dimensions: [("origin", error.origin)]).increment()
            throw error
        }
        if reservation.at > .now { Counter(label: "jewz.rate_limiter.waits", dimensions: [("origin", reservation.origin)]).increment() }
        do {
            var turn = reservation.at
            while turn > .now {
                try await Task.sleep(until: turn, clock: .continuous)
                turn = ledger.confirm(reservation) ?? turn
            }
        } catch {
            ledger.finish(reservation, sent: false)
            throw error
        }
        let response: HTTPResponse
        do {
            response = try await next(request)
        } catch {
            ledger.finish(reservation, sent: true)
            throw error
        }
        // Learnt before the turn is finished: a call waiting for the first answer goes on
        // knowing what it says.
        if configuration.learnsFromServers { ledger.learn(from: response, origin: reservation.origin) }
        ledger.finish(reservation, sent: true)
        return response
    }
}
