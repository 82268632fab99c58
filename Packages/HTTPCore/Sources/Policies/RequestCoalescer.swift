import JewzLocking

/// Shares one network exchange between identical requests in flight (same method, URL and
/// headers). Every waiter gets the response; a waiter that is cancelled leaves alone, and
/// the exchange is cancelled only when no waiter is left.
final class RequestCoalescer: Sendable {
    struct Key: Hashable, Sendable {
        let method: HTTPMethod
        let url: String
        let headers: [HTTPHeaderFields.Field]

        init(_ request: HTTPRequest) {
            method = request.method
            url = request.url.absoluteString
            headers = request.headers.fields
        }
    }

    private struct Flight {
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<ReceivedResponse, any Error>] = [:]
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var nextID: UInt64 = 0
        var cancelledEarly: Set<UInt64> = []
    }

    private let state = Mutex(State())

    /// The response of the exchange for `request`, started by `exchange` unless an identical
    /// one is already in flight; then `joined` is called, in the caller's task.
    func response(
        for request: HTTPRequest, joined: () -> Void, exchange: @escaping @Sendable () async throws -> ReceivedResponse
    ) async throws -> ReceivedResponse {
        let key = Key(request)
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let startsFlight: Bool? = state.withLock { state in
                    if state.cancelledEarly.remove(id) != nil { return nil }
                    let isNew = state.flights[key] == nil
                    state.flights[key, default: Flight()].waiters[id] = continuation
                    return isNew
                }
                guard let startsFlight else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                guard startsFlight else {
                    joined()
                    return
                }
                let task = Task {
                    let result = await Result(catching: exchange)
                    self.land(key, with: result)
                }
                state.withLock { $0.flights[key]?.task = task }
            }
        } onCancel: {
            let (waiter, abandoned): (CheckedContinuation<ReceivedResponse, any Error>?, Task<Void, Never>?) = state.withLock { state in
                guard let waiter = state.flights[key]?.waiters.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return (nil, nil)
                }
                guard state.flights[key]?.waiters.isEmpty == true else { return (waiter, nil) }
                return (waiter, state.flights.removeValue(forKey: key)?.task)
            }
            waiter?.resume(throwing: CancellationError())
            abandoned?.cancel()
        }
    }

    /// Hands the exchange's result to every waiter and forgets the flight.
    private func land(_ key: Key, with result: Result<ReceivedResponse, any Error>) {
        let waiters = state.withLock { state in
            state.flights.removeValue(forKey: key)?.waiters.values.map { $0 } ?? []
        }
        for waiter in waiters { waiter.resume(with: result) }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing body.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
