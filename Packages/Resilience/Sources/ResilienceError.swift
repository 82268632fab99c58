import Foundation
import JewzHTTPCore

/// Why a resilience stage stopped a call before it reached the network. A call reports it as
/// `HTTPError.Code.middleware`, with this as `underlying`.
///
/// A struct with a growable ``Code``, as `HTTPError`: switch over ``code`` with a `default`.
public struct ResilienceError: Error, Sendable, CustomStringConvertible {
    /// What stopped the call, as a value to compare with the static members; new ones may come.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The origin's circuit is open: its recent calls failed too often, and calls to it fail
        /// at once until ``ResilienceError/retryAfter``.
        public static let circuitOpen = Code("circuitOpen")
        /// The origin has as many calls in flight as its bulkhead allows, and as many waiting.
        public static let bulkheadFull = Code("bulkheadFull")
        /// The origin's rate limit would have the call wait longer than the limiter allows.
        public static let rateLimited = Code("rateLimited")

        /// The code's name.
        public var description: String { name }
    }

    /// What stopped the call.
    public let code: Code
    /// The origin (scheme, host and port) the call was for.
    public let origin: String
    /// When calls to the origin are let through again, for ``Code-swift.struct/circuitOpen`` and
    /// ``Code-swift.struct/rateLimited``.
    public let retryAfter: ContinuousClock.Instant?
    private let detail: String

    static func circuitOpen(origin: String, until: ContinuousClock.Instant, remaining: Duration) -> ResilienceError {
        ResilienceError(code: .circuitOpen, origin: origin, retryAfter: until, detail: seconds(remaining))
    }

    static func rateLimited(origin: String, until: ContinuousClock.Instant, wait: Duration) -> ResilienceError {
        ResilienceError(code: .rateLimited, origin: origin, retryAfter: until, detail: seconds(wait))
    }

    /// `duration` as a message says it: `2.5 s`.
    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f s", max(duration.inSeconds, 0))
    }

    static func bulkheadFull(origin: String, limit: Int, waiting: Int) -> ResilienceError {
        ResilienceError(code: .bulkheadFull, origin: origin, retryAfter: nil, detail: "\(limit) in flight and \(waiting) waiting")
    }

    /// What stopped the call and what to do about it.
    public var description: String {
        switch code {
        case .circuitOpen:
            "The circuit to \(origin) is open after too many failures: calls to it fail at once for \(detail) more, then one is let through to try it."
        case .rateLimited:
            "\(origin)'s rate limit lets the next call go in \(detail), longer than the limiter waits: send fewer calls, or raise maximumWait."
        case .bulkheadFull:
            "\(origin) has \(detail), as many as its bulkhead allows: retry later, or raise the bulkhead's limits."
        default:
            "\(code) for \(origin): \(detail)"
        }
    }
}
