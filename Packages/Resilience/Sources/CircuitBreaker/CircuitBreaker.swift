import CoreMetrics
import Foundation
import JewzHTTPCore
import JewzLocking
import Logging

/// A circuit breaker per origin, as Polly and Resilience4j give .NET and Java services: when
/// too many of an origin's recent calls fail, calls to it fail at once for a while
/// (``ResilienceError/Code-swift.struct/circuitOpen``) instead of piling up on a dependency
/// that is down; then a few probe calls go through, and their success closes the circuit again.
///
/// A network middleware: it sees each exchange on the wire — every attempt of a retry and every
/// redirect hop, each counted for its own origin — and no cache hit.
///
/// ```swift
/// let breaker = CircuitBreaker(.init(failureRatio: 0.5, minimumCalls: 20, window: .seconds(30), openDuration: .seconds(15)))
/// let session = HTTPSession(configuration: .init { $0.networkMiddleware = [breaker] })
/// ```
///
/// Each change of state is logged and counted (`jewz.circuit_breaker.transitions`, with the
/// origin and the new state), and so is each call refused (`jewz.circuit_breaker.rejections`),
/// through the metrics system the program bootstrapped.
public struct CircuitBreaker: HTTPMiddleware {
    /// When a circuit opens, how long it stays open, and what counts as a failure.
    public struct Configuration: Sendable {
        /// The share of failed calls in the window that opens the circuit, from 0 to 1.
        public var failureRatio: Double
        /// The fewest calls in the window before its ratio is judged.
        public var minimumCalls: Int
        /// How far back calls count.
        public var window: Duration
        /// How long an open circuit refuses calls before it lets probes through.
        public var openDuration: Duration
        /// How many probes must succeed, one after the other, to close a half-open circuit;
        /// as many are let through at once.
        public var probes: Int
        /// Whether a call's outcome counts as a failure: by default a 5xx status, or an error
        /// other than a cancellation (a refused connection, a timeout, a reset).
        public var isFailure: @Sendable (Outcome) -> Bool

        /// A configuration; what is not given is as Resilience4j's defaults are, or near them.
        public init(
            failureRatio: Double = 0.5, minimumCalls: Int = 10, window: Duration = .seconds(30), openDuration: Duration = .seconds(30),
            probes: Int = 1, isFailure: @escaping @Sendable (Outcome) -> Bool = Outcome.isServerFailure
        ) {
            self.failureRatio = min(max(failureRatio, 0), 1)
            self.minimumCalls = max(minimumCalls, 1)
            self.window = max(window, .milliseconds(10))
            self.openDuration = max(openDuration, .zero)
            self.probes = max(probes, 1)
            self.isFailure = isFailure
        }
    }

    /// How a call through the breaker ended.
    public enum Outcome: Sendable {
        /// A response came back, with this status.
        case response(statusCode: Int)
        /// The exchange failed.
        case failure(any Error)

        /// A 5xx status, or an error other than a cancellation.
        public static let isServerFailure: @Sendable (Outcome) -> Bool = { outcome in
            switch outcome {
            case .response(let statusCode): statusCode >= 500
            case .failure(let error): !(error is CancellationError) && (error as? HTTPError)?.code != .cancelled
            }
        }
    }

    /// Where an origin's circuit stands.
    public enum State: Sendable, Hashable {
        /// Calls go through and are counted.
        case closed
        /// Calls fail at once until the instant given.
        case open(until: ContinuousClock.Instant)
        /// Probes go through; their outcome closes or opens the circuit again.
        case halfOpen
    }

    /// The configuration it was made with.
    public let configuration: Configuration
    private let circuits: CircuitBoard

    /// `circuit breaker`, as the stage events and `jewz -v` call it.
    public var name: String { "circuit breaker" }

    /// A breaker with `configuration`, reading the time from `clock` (a test's own).
    public init(_ configuration: Configuration = .init(), clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.configuration = configuration
        circuits = CircuitBoard(configuration: configuration, clock: clock)
    }

    /// Where the circuit of `origin` (`https://api.example.com`, scheme, host and port) stands.
    public func state(of origin: String) -> State {
        circuits.state(of: URL(string: origin)?.origin ?? origin)
    }

    /// Sends `request` when its origin's circuit lets it, and counts how it ended; a call that
    /// bypasses the breaker (``ResilienceOptions/bypassesCircuitBreaker``) goes uncounted.
    ///
    /// - Throws: ``ResilienceError/Code-swift.struct/circuitOpen`` when the circuit is open, or
    ///   half-open with its probes under way; what the stages after it threw.
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        if next.options.resilience.bypassesCircuitBreaker { return try await next(request) }
        let origin = request.url.origin
        let ticket = try circuits.admit(origin)
        let response: HTTPResponse
        do {
            response = try await next(request)
        } catch {
            circuits.record(ticket, outcome: .failure(error))
            throw error
        }
        circuits.record(ticket, outcome: .response(statusCode: response.statusCode))
        return response
    }
}
