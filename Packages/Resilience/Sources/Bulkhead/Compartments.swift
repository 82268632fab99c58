import JewzLocking

/// The places of a ``Bulkhead``, per origin: how many are taken, and who waits for one, in order.
final class Compartments: Sendable {
    private struct Compartment {
        var inFlight = 0
        var waiters: [(number: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private struct State {
        var compartments: [String: Compartment] = [:]
        var nextWaiter = 0
    }

    private let capacity: Int
    private let waiting: Int
    private let state = Mutex(State())

    init(capacity: Int, waiting: Int) {
        self.capacity = capacity
        self.waiting = waiting
    }

    func calls(to origin: String) -> (inFlight: Int, waiting: Int) {
        state.withLock { state in
            let compartment = state.compartments[origin]
            return (compartment?.inFlight ?? 0, compartment?.waiters.count ?? 0)
        }
    }

    /// Takes a place at `origin`, waiting for one when all are taken.
    ///
    /// - Throws: ``ResilienceError/Code-swift.struct/bulkheadFull``, or `CancellationError`
    ///   when the task is cancelled while it waits.
    func enter(_ origin: String) async throws {
        enum Entry { case entered, waits(Int), full(waiting: Int) }
        let entry: Entry = state.withLock { state in
            var compartment = state.compartments[origin] ?? Compartment()
            defer { state.compartments[origin] = compartment }
            if compartment.inFlight < capacity {
                compartment.inFlight += 1
                return .entered
            }
            guard compartment.waiters.count < waiting else { return .full(waiting: compartment.waiters.count) }
            defer { state.nextWaiter += 1 }
            return .waits(state.nextWaiter)
        }
        switch entry {
        case .entered:
            return
        case .full(let count):
            throw ResilienceError.bulkheadFull(origin: origin, limit: capacity, waiting: count)
        case .waits(let number):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    // The cancel flag is read under the lock the handler takes: a cancel either
                    // finds the waiter queued or is seen here before it is queued.
                    // A place freed since the first look is taken now rather than waited for.
                    enum Turn { case cancelled, placed, queued }
                    let turn: Turn = state.withLock { state in
                        guard !Task.isCancelled else { return .cancelled }
                        var compartment = state.compartments[origin] ?? Compartment()
                        defer { state.compartments[origin] = compartment }
                        if compartment.inFlight < capacity {
                            compartment.inFlight += 1
                            return .placed
                        }
                        compartment.waiters.append((number, continuation))
                        return .queued
                    }
                    switch turn {
                    case .cancelled: continuation.resume(throwing: CancellationError())
                    case .placed: continuation.resume()
                    case .queued: break
                    }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                    guard let index = state.compartments[origin]?.waiters.firstIndex(where: { $0.number == number }) else { return nil }
                    return state.compartments[origin]?.waiters.remove(at: index).continuation
                }
                waiter?.resume(throwing: CancellationError())
            }
        }
    }

    /// Frees a place at `origin`: the first waiter takes it, else it is free.
    func leave(_ origin: String) {
        let next: CheckedContinuation<Void, any Error>? = state.withLock { state in
            guard var compartment = state.compartments[origin] else { return nil }
            defer { state.compartments[origin] = compartment.inFlight == 0 && compartment.waiters.isEmpty ? nil : compartment }
            guard compartment.waiters.isEmpty else { return compartment.waiters.removeFirst().continuation }
            compartment.inFlight -= 1
            return nil
        }
        next?.resume()
    }
}
