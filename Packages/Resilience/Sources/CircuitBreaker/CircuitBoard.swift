import CoreMetrics
import JewzHTTPCore
import JewzLocking
import Logging

/// The circuits of a ``CircuitBreaker``, one per origin, under one lock: each an enum whose
/// state carries what it needs.
final class CircuitBoard: Sendable {
    private enum Circuit {
        case closed(CircuitWindow)
        case open(until: ContinuousClock.Instant)
        /// Probes let through and not yet back, and those that came back well.
        case halfOpen(inFlight: Int, succeeded: Int)
    }

    /// What a call was let through as: counted in the window, or one of the probes.
    struct Ticket {
        let origin: String
        let isProbe: Bool
    }

    /// The most origins kept: past it, closed circuits with nothing in their window go first.
    private static let maximumOrigins = 1024

    private let configuration: CircuitBreaker.Configuration
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let circuits = Mutex<[String: Circuit]>([:])
    private let logger = Logger(label: "jewzruxin.circuit-breaker")

    init(configuration: CircuitBreaker.Configuration, clock: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.configuration = configuration
        self.clock = clock
    }

    func state(of origin: String) -> CircuitBreaker.State {
        switch circuits.withLock({ $0[origin] }) {
        case nil, .closed?: .closed
        case .open(let until)?: .open(until: until)
        case .halfOpen?: .halfOpen
        }
    }

    /// What ``admit(_:)`` decided.
    private enum Admission {
        case counted
        case probe(first: Bool)
        case refused(until: ContinuousClock.Instant)
    }

    /// Lets a call to `origin` through, or refuses it while the circuit is open.
    ///
    /// - Throws: ``ResilienceError/Code-swift.struct/circuitOpen``.
    func admit(_ origin: String) throws(ResilienceError) -> Ticket {
        let now = clock()
        let admission: Admission = circuits.withLock { circuits in
            switch circuits[origin] {
            case nil:
                if circuits.count >= Self.maximumOrigins { Self.evictIdle(&circuits, at: now) }
                circuits[origin] = .closed(CircuitWindow(span: configuration.window))
                return .counted
            case .closed?:
                return .counted
            case .open(let until)? where now < until:
                return .refused(until: until)
            case .open?:
                circuits[origin] = .halfOpen(inFlight: 1, succeeded: 0)
                return .probe(first: true)
            case .halfOpen(let inFlight, let succeeded)? where inFlight + succeeded < configuration.probes:
                circuits[origin] = .halfOpen(inFlight: inFlight + 1, succeeded: succeeded)
                return .probe(first: false)
            case .halfOpen?:
                // Its probes are under way: the next call may be one once they are back.
                return .refused(until: now)
            }
        }
        switch admission {
        case .counted:
            return Ticket(origin: origin, isProbe: false)
        case .probe(let first):
            if first { transitioned(origin, to: "half-open") }
            return Ticket(origin: origin, isProbe: true)
        case .refused(let until):
            Counter(label: "jewz.circuit_breaker.rejections", dimensions: [("origin", origin)]).increment()
            throw .circuitOpen(origin: origin, until: until, remaining: until - now)
        }
    }

    /// Counts how a call let through by `ticket` ended, opening or closing its circuit.
    func record(_ ticket: Ticket, outcome: CircuitBreaker.Outcome) {
        let now = clock()
        let failed = configuration.isFailure(outcome)
        // A call cancelled (and not counted a failure) says nothing of the origin.
        let cancelled = if !failed, case .failure(let error) = outcome { Self.isCancellation(error) } else { false }
        let change: String? = circuits.withLock { circuits in
            switch circuits[ticket.origin] {
            case .closed(var window)? where !ticket.isProbe:
                guard !cancelled else { return nil }
                window.record(failed: failed, at: now)
                let (calls, failures) = window.totals(at: now)
                if calls >= configuration.minimumCalls, Double(failures) >= configuration.failureRatio * Double(calls) {
                    circuits[ticket.origin] = .open(until: now + configuration.openDuration)
                    return "open"
                }
                circuits[ticket.origin] = .closed(window)
                return nil
            case .halfOpen(let inFlight, let succeeded)? where ticket.isProbe:
                if cancelled {
                    circuits[ticket.origin] = .halfOpen(inFlight: inFlight - 1, succeeded: succeeded)
                    return nil
                }
                if failed {
                    circuits[ticket.origin] = .open(until: now + configuration.openDuration)
                    return "open"
                }
                if succeeded + 1 >= configuration.probes {
                    circuits[ticket.origin] = .closed(CircuitWindow(span: configuration.window))
                    return "closed"
                }
                circuits[ticket.origin] = .halfOpen(inFlight: inFlight - 1, succeeded: succeeded + 1)
                return nil
            default:
                // A call let through before the circuit changed: its outcome belongs to a state gone.
                return nil
            }
        }
        if let change { transitioned(ticket.origin, to: change) }
    }

    private func transitioned(_ origin: String, to state: String) {
        logger.notice("circuit to \(origin) \(state)")
        Counter(label: "jewz.circuit_breaker.transitions", dimensions: [("origin", origin), ("state", state)]).increment()
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? HTTPError)?.code == .cancelled
    }

    /// Drops the closed circuits with nothing left in their window.
    private static func evictIdle(_ circuits: inout [String: Circuit], at now: ContinuousClock.Instant) {
        for (origin, circuit) in circuits {
            guard case .closed(var window) = circuit, window.isEmpty(at: now) else { continue }
            circuits[origin] = nil
        }
    }
}
