import JewzLocking

/// One flight of work per key, shared by every caller that asks for the key while it runs:
/// request coalescing, the image cache's downloads, a service's `.reuse`, token refresh and
/// the cache's background revalidation all wait on one of these (as Nuke's task pool does).
///
/// Every waiter gets the flight's outcome. A waiter whose task is cancelled leaves alone, with
/// `CancellationError`, and the others keep waiting; when the last one leaves, the work is
/// cancelled. The work is told its waiters' highest priority whenever that changes. The work is
/// made once per flight, outside the lock, by the caller that starts it.
package final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What a new flight runs, and how it hears of its waiters' highest priority.
    package struct Work: Sendable {
        let run: @Sendable () async throws -> Value
        let prioritize: (@Sendable (RequestPriority) -> Void)?

        package init(prioritize: (@Sendable (RequestPriority) -> Void)? = nil, run: @escaping @Sendable () async throws -> Value) {
            self.run = run
            self.prioritize = prioritize
        }
    }

    private struct Waiter {
        let resume: @Sendable (Result<Value, any Error>) -> Void
        let priority: RequestPriority
    }

    private struct Flight {
        /// Tells this flight from a later one for the same key.
        let id: UInt64
        var waiters: [UInt64: Waiter] = [:]
        var task: Task<Void, Never>?
        var prioritize: (@Sendable (RequestPriority) -> Void)?
        /// Started with nobody waiting (``SingleFlight/launch(_:starting:)``): runs to its end.
        var isDetached = false

        var priority: RequestPriority { waiters.values.map(\.priority).max() ?? .low }
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// How many flights are running.
    package var count: Int { state.withLock { $0.flights.count } }

    /// How many callers wait for the flight for `key`: zero when none runs.
    package func waiterCount(for key: Key) -> Int {
        state.withLock { $0.flights[key]?.waiters.count ?? 0 }
    }

    /// The outcome of the flight for `key`: the one running, which the caller joins (then
    /// `joined` is called, in the caller's task), or a new one run with what `starting` makes.
    ///
    /// - Parameters:
    ///   - replacing: start a new flight whatever runs, cancelling the one running (its
    ///     waiters get `CancellationError`): the last caller wins.
    ///   - call: the call the caller waits for, whose cancel makes it leave as its task's does.
    /// - Throws: what the work threw (or `starting`, to every waiter of its flight), or
    ///   `CancellationError` when the calling task or `call` is cancelled or the flight is
    ///   ``cancel(_:)``led or replaced.
    package func value(
        for key: Key, priority: RequestPriority = .normal, replacing: Bool = false, waitingFor call: HTTPCall? = nil,
        joined: () -> Void = {}, starting: () throws -> Work
    ) async throws -> Value {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        guard let call else {
            return try await wait(for: key, id: id, priority: priority, replacing: replacing, call: nil, joined: joined, starting: starting)
        }
        return try await call.whileWaiting(onCancel: { self.leave(key, waiter: id) }) {
            try await wait(for: key, id: id, priority: priority, replacing: replacing, call: call, joined: joined, starting: starting)
        }
    }

    /// Joins or starts the flight for `key` as waiter `id`, and waits for its outcome.
    private func wait(
        for key: Key, id: UInt64, priority: RequestPriority, replacing: Bool, call: HTTPCall?, joined: () -> Void,
        starting: () throws -> Work
    ) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let waiter = Waiter(resume: { continuation.resume(with: $0) }, priority: priority)
                join(key, id: id, waiter: waiter, replacing: replacing, call: call, joined: joined, starting: starting)
            }
        } onCancel: {
            leave(key, waiter: id)
        }
    }

    /// As ``value(for:priority:replacing:waitingFor:joined:starting:)`` for a caller that is called back
    /// instead of awaiting: it has joined the flight (or started it) when this returns, and
    /// `completion` gets the flight's outcome, or `CancellationError` when the flight is
    /// ``cancel(_:)``led or replaced. Such a caller never leaves a flight on its own.
    package func join(
        _ key: Key, priority: RequestPriority = .normal, replacing: Bool = false, starting: () throws -> Work,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        join(key, id: id, waiter: Waiter(resume: completion, priority: priority), replacing: replacing, call: nil, joined: {}, starting: starting)
    }

    /// Starts a flight for `key` with what `starting` makes, unless one is running. Nobody
    /// waits for it, and it runs to its end even when callers who join it later leave.
    package func launch(_ key: Key, starting: () throws -> Work) {
        let id: UInt64? = state.withLock { state in
            guard state.flights[key] == nil else { return nil }
            state.nextID += 1
            state.flights[key] = Flight(id: state.nextID, isDetached: true)
            return state.nextID
        }
        if let id { start(key, flight: id, starting: starting) }
    }

    /// Stops the flight for `key`: every waiter gets `CancellationError`, and the work is cancelled.
    package func cancel(_ key: Key) {
        guard let flight = state.withLock({ $0.flights.removeValue(forKey: key) }) else { return }
        Self.stop(flight)
    }

    /// Ends a flight taken out of the table: its waiters get `CancellationError`, its work is cancelled.
    private static func stop(_ flight: Flight) {
        for waiter in flight.waiters.values { waiter.resume(.failure(CancellationError())) }
        flight.task?.cancel()
    }

    /// What a caller found when it asked for a key.
    private enum Entry {
        case cancelled
        case joined(raisedTo: RequestPriority?, prioritize: (@Sendable (RequestPriority) -> Void)?)
        case starts(replaced: Flight?)
    }

    private func join(
        _ key: Key, id: UInt64, waiter: Waiter, replacing: Bool, call: HTTPCall?, joined: () -> Void, starting: () throws -> Work
    ) {
        let entry = state.withLock { state -> Entry in
            // A task or call cancelled before it got here: its cancellation handler found no waiter.
            if Task.isCancelled || call?.isCancelled == true { return .cancelled }
            guard var flight = state.flights[key], !replacing else {
                let replaced = state.flights.updateValue(Flight(id: id, waiters: [id: waiter]), forKey: key)
                return .starts(replaced: replaced)
            }
            let before = flight.priority
            flight.waiters[id] = waiter
            state.flights[key] = flight
            return .joined(raisedTo: flight.priority > before ? flight.priority : nil, prioritize: flight.prioritize)
        }
        switch entry {
        case .cancelled:
            waiter.resume(.failure(CancellationError()))
        case .joined(let raised, let prioritize):
            joined()
            if let raised { prioritize?(raised) }
        case .starts(let replaced):
            if let replaced { Self.stop(replaced) }
            start(key, flight: id, starting: starting)
        }
    }

    /// Makes the flight's work and runs it in a task of its own, unless everyone left meanwhile.
    private func start(_ key: Key, flight id: UInt64, starting: () throws -> Work) {
        let work: Work
        do {
            work = try starting()
        } catch {
            land(key, flight: id, with: .failure(error))
            return
        }
        let task = Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await work.run())
            } catch {
                result = .failure(error)
            }
            self.land(key, flight: id, with: result)
        }
        let priority = state.withLock { state -> RequestPriority? in
            guard state.flights[key]?.id == id else { return nil }
            state.flights[key]?.task = task
            state.flights[key]?.prioritize = work.prioritize
            return state.flights[key]?.priority
        }
        guard let priority else {
            task.cancel()
            return
        }
        work.prioritize?(priority)
    }

    /// Hands the outcome to every waiter still there and forgets the flight.
    private func land(_ key: Key, flight id: UInt64, with result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [Waiter] in
            guard let flight = state.flights[key], flight.id == id else { return [] }
            state.flights[key] = nil
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.resume(result) }
    }

    /// One waiter leaves with `CancellationError`; the work stops when it was the last.
    private func leave(_ key: Key, waiter id: UInt64) {
        typealias Departure = (Waiter, abandoned: Task<Void, Never>?, lowered: (RequestPriority, @Sendable (RequestPriority) -> Void)?)
        let departure = state.withLock { state -> Departure? in
            guard var flight = state.flights[key], let waiter = flight.waiters.removeValue(forKey: id) else { return nil }
            if flight.waiters.isEmpty, !flight.isDetached {
                state.flights[key] = nil
                return (waiter, flight.task, nil)
            }
            state.flights[key] = flight
            let lowered = flight.priority < waiter.priority ? flight.prioritize.map { (flight.priority, $0) } : nil
            return (waiter, nil, lowered)
        }
        guard let (waiter, abandoned, lowered) = departure else { return }
        waiter.resume(.failure(CancellationError()))
        abandoned?.cancel()
        if let (priority, prioritize) = lowered { prioritize(priority) }
    }
}
