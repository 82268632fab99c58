import Foundation
import JewzLocking

/// The pings of ``WebSocket/ping(_:)`` waiting for their pongs, matched by payload (RFC 6455
/// §5.5.3: a pong carries its ping's). A ping is registered before it is sent, so that a pong
/// quicker than the waiting task is kept for it; each leaves when answered, when its deadline or
/// its task's cancellation comes first, or when the connection ends.
final class PongWaiters: Sendable {
    private struct Waiter {
        let id: Int
        let payload: Data
        /// The waiting task, once it waits.
        var continuation: CheckedContinuation<Void, any Error>?
        /// How it ended, when that came before the task waited.
        var outcome: Result<Void, any Error>?
    }

    private struct Fields {
        var next = 0
        var waiters: [Waiter] = []
        var ended: WebSocketError?
    }

    private let fields = Mutex(Fields())

    /// Registers a ping of `payload`, sends it with `send`, and waits for its pong.
    ///
    /// - Throws: ``WebSocketError/Code/pingTimedOut`` past `timeout`; the connection's end;
    ///   what `send` throws; `CancellationError`.
    func waitForPong(of payload: Data, timeout: Duration, sending send: @Sendable () async throws -> Void) async throws {
        let id = register(payload)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.wait(for: id) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw WebSocketError(.pingTimedOut, "\(timeout)")
            }
            do {
                try await send()
                try await group.next()
            } catch {
                finish(id, with: .failure(error))
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }

    /// A pong arrived: the oldest ping with its payload still waiting is answered.
    func pongReceived(_ payload: Data) {
        let id = fields.withLock { fields in fields.waiters.first { $0.payload == payload && $0.outcome == nil }?.id }
        if let id { finish(id, with: .success(())) }
    }

    /// The connection ended: every ping waiting fails with `error`, and any sent later.
    func end(with error: WebSocketError) {
        let ids = fields.withLock { fields in
            fields.ended = fields.ended ?? error
            return fields.waiters.filter { $0.outcome == nil }.map(\.id)
        }
        ids.forEach { finish($0, with: .failure(error)) }
    }

    private func register(_ payload: Data) -> Int {
        fields.withLock { fields in
            defer { fields.next += 1 }
            let failed = fields.ended.map { Result<Void, any Error>.failure($0) }
            fields.waiters.append(Waiter(id: fields.next, payload: payload, outcome: failed))
            return fields.next
        }
    }

    /// Waits until `id` is finished (at once when it was already).
    private func wait(for id: Int) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = fields.withLock { fields -> Result<Void, any Error>? in
                    guard let index = fields.waiters.firstIndex(where: { $0.id == id }) else { return .failure(CancellationError()) }
                    guard let outcome = fields.waiters[index].outcome else {
                        fields.waiters[index].continuation = continuation
                        return nil
                    }
                    fields.waiters.remove(at: index)
                    return outcome
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            finish(id, with: .failure(CancellationError()))
        }
    }

    /// Ends `id` with `outcome`: resumes its task, or keeps the outcome until it waits. The
    /// first outcome stands.
    private func finish(_ id: Int, with outcome: Result<Void, any Error>) {
        let waiting = fields.withLock { fields -> CheckedContinuation<Void, any Error>? in
            guard let index = fields.waiters.firstIndex(where: { $0.id == id }), fields.waiters[index].outcome == nil else { return nil }
            guard let continuation = fields.waiters[index].continuation else {
                fields.waiters[index].outcome = outcome
                return nil
            }
            fields.waiters.remove(at: index)
            return continuation
        }
        waiting?.resume(with: outcome)
    }
}
