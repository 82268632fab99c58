import JewzHTTPCore
import JewzLocking

/// The downloads in flight, one per key, each shared by every caller asking for that key
/// meanwhile: a waiter that is cancelled leaves alone, the last one to leave cancels the
/// download, and the download runs at the highest priority among its waiters.
final class ImageDownloads: Sendable {
    typealias Load = @Sendable (HTTPCycle) async throws -> ImageResponse

    private struct Waiter {
        let continuation: CheckedContinuation<ImageResponse, any Error>
        let priority: RequestPriority
    }

    private struct Flight {
        let cycle: HTTPCycle
        var task: Task<Void, Never>?
        var waiters: [Int: Waiter]

        var priority: RequestPriority { waiters.values.map(\.priority).max() ?? .low }
    }

    private struct State {
        var flights: [String: Flight] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    /// How many downloads are in flight.
    var count: Int { state.withLock { $0.flights.count } }

    /// The shared download for `key`, started with `makeCycle` and `load` when none is in flight.
    ///
    /// - Throws: what the download threw, or `CancellationError` when the calling task is
    ///   cancelled (the download goes on for the other waiters).
    func response(
        forKey key: String, priority: RequestPriority, makeCycle: @Sendable () -> HTTPCycle, load: @escaping Load
    ) async throws -> ImageResponse {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                join(key, id: id, waiter: Waiter(continuation: continuation, priority: priority), makeCycle: makeCycle, load: load)
            }
        } onCancel: {
            leave(key, id: id)
        }
    }

    private func join(_ key: String, id: Int, waiter: Waiter, makeCycle: @Sendable () -> HTTPCycle, load: @escaping Load) {
        let started = state.withLock { state -> HTTPCycle? in
            // A task cancelled before it got here: its cancellation handler found no waiter.
            if Task.isCancelled {
                waiter.continuation.resume(throwing: CancellationError())
                return nil
            }
            if var flight = state.flights[key] {
                let before = flight.priority
                flight.waiters[id] = waiter
                if flight.priority > before { flight.cycle.priority = flight.priority }
                state.flights[key] = flight
                return nil
            }
            let cycle = makeCycle()
            cycle.priority = waiter.priority
            state.flights[key] = Flight(cycle: cycle, waiters: [id: waiter])
            return cycle
        }
        guard let cycle = started else { return }
        let task = Task {
            let result = await Result { () async throws -> ImageResponse in try await load(cycle) }
            self.finish(key, cycle: cycle, with: result)
        }
        state.withLock { state in
            if state.flights[key]?.cycle === cycle { state.flights[key]?.task = task } else { task.cancel() }
        }
    }

    /// Gives the download's outcome to every waiter still there.
    private func finish(_ key: String, cycle: HTTPCycle, with result: Result<ImageResponse, any Error>) {
        let waiters = state.withLock { state -> [Waiter] in
            guard let flight = state.flights[key], flight.cycle === cycle else { return [] }
            state.flights[key] = nil
            return Array(flight.waiters.values)
        }
        for waiter in waiters { waiter.continuation.resume(with: result) }
    }

    /// One waiter leaves: it gets `CancellationError`; the download stops when it was the last.
    private func leave(_ key: String, id: Int) {
        let (waiter, abandoned) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
            guard var flight = state.flights[key], let waiter = flight.waiters.removeValue(forKey: id) else { return (nil, nil) }
            if flight.waiters.isEmpty {
                state.flights[key] = nil
                return (waiter, flight.task)
            }
            if flight.priority < waiter.priority { flight.cycle.priority = flight.priority }
            state.flights[key] = flight
            return (waiter, nil)
        }
        waiter?.continuation.resume(throwing: CancellationError())
        abandoned?.cancel()
    }

    /// Stops the download for `key`: every waiter gets `CancellationError`.
    func cancel(_ key: String) {
        let flight = state.withLock { $0.flights.removeValue(forKey: key) }
        guard let flight else { return }
        for waiter in flight.waiters.values { waiter.continuation.resume(throwing: CancellationError()) }
        flight.task?.cancel()
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing call.
    init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
