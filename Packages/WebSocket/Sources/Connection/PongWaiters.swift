import Foundation
import JewzLocking

/// The pings of ``WebSocket/ping(_:)`` waiting for their pongs, matched by payload (RFC 6455
/// §5.5.3: a pong carries its ping's). Each waiter leaves when answered, when its deadline or
/// its task's cancellation comes first, or when the connection ends.
final class PongWaiters: Sendable {
    private struct Waiter {
        let id: Int
        let payload: Data
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Fields {
        var next = 0
        var waiters: [Waiter] = []
        var ended: WebSocketError?
    }

    private let fields = Mutex(Fields())

    /// Waits for a pong carrying `payload`, after `send` sent the ping.
    ///
    /// - Throws: ``WebSocketError/Code/pingTimedOut`` past `timeout`; the connection's end;
    ///   `CancellationError`.
    func waitForPong(of payload: Data, timeout: Duration, sending send: @Sendable () async throws -> Void) async throws {
        let id = fields.withLock { fields in
            defer { fields.next += 1 }
            return fields.next
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        let ended = self.fields.withLock { fields -> WebSocketError? in
                            guard fields.ended == nil else { return fields.ended }
                            fields.waiters.append(Waiter(id: id, payload: payload, continuation: continuation))
                            return nil
                        }
                        if let ended { continuation.resume(throwing: ended) }
                    }
                } onCancel: {
                    self.remove(id)?.resume(throwing: CancellationError())
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw WebSocketError(.pingTimedOut, "\(timeout)")
            }
            do {
                try await send()
                try await group.next()
            } catch {
                remove(id)?.resume(throwing: error)
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }

    private func remove(_ id: Int) -> CheckedContinuation<Void, any Error>? {
        fields.withLock { fields in
            guard let index = fields.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return fields.waiters.remove(at: index).continuation
        }
    }

    /// A pong arrived: the oldest ping with its payload is answered.
    func pongReceived(_ payload: Data) {
        let answered = fields.withLock { fields -> CheckedContinuation<Void, any Error>? in
            guard let index = fields.waiters.firstIndex(where: { $0.payload == payload }) else { return nil }
            return fields.waiters.remove(at: index).continuation
        }
        answered?.resume()
    }

    /// The connection ended: every ping waiting fails with `error`, and any sent later.
    func end(with error: WebSocketError) {
        let waiting = fields.withLock { fields in
            fields.ended = error
            defer { fields.waiters = [] }
            return fields.waiters
        }
        waiting.forEach { $0.continuation.resume(throwing: error) }
    }
}
