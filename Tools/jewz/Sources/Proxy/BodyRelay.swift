import Foundation
import JewzLocking

/// A request body on its way from the client's connection to the cycle that sends it on, a
/// chunk at a time. It holds at most ``capacity`` chunks: past that, ``offer(_:)`` says so and
/// the connection stops reading until ``next()`` has made room, which `onRoom` announces.
final class BodyRelay: Sendable {
    private struct State {
        var chunks: [Data] = []
        var ended = false
        var failure: (any Error)?
        var waiter: CheckedContinuation<Data?, any Error>?
        var full = false
    }

    static let capacity = 16
    private let state = Mutex(State())
    private let onRoom: @Sendable () -> Void

    /// - Parameter onRoom: called, from the reading task, when a relay that was full has room.
    init(onRoom: @escaping @Sendable () -> Void) {
        self.onRoom = onRoom
    }

    /// Hands on a chunk the client sent; `false` when the relay is now full and the connection
    /// should stop reading.
    func offer(_ chunk: Data) -> Bool {
        let (waiter, room) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, Bool) in
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, true)
            }
            state.chunks.append(chunk)
            state.full = state.chunks.count >= Self.capacity
            return (nil, !state.full)
        }
        waiter?.resume(returning: chunk)
        return room
    }

    /// The body is complete.
    func finish() {
        end(with: nil)
    }

    /// The client went away: the cycle's body fails with `error`.
    func fail(_ error: any Error) {
        end(with: error)
    }

    private func end(with error: (any Error)?) {
        let waiter = state.withLock { state in
            state.ended = true
            state.failure = error
            defer { state.waiter = nil }
            return state.waiter
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// The next chunk, `nil` at the end.
    func next() async throws -> Data? {
        try await withCheckedThrowingContinuation { continuation in
            enum Outcome { case chunk(Data, announceRoom: Bool), end, failure(any Error), wait }
            let outcome = state.withLock { state -> Outcome in
                if !state.chunks.isEmpty {
                    let chunk = state.chunks.removeFirst()
                    let announce = state.full && state.chunks.count <= Self.capacity / 2
                    if announce { state.full = false }
                    return .chunk(chunk, announceRoom: announce)
                }
                if let failure = state.failure { return .failure(failure) }
                if state.ended { return .end }
                state.waiter = continuation
                return .wait
            }
            switch outcome {
            case .chunk(let chunk, let announce):
                continuation.resume(returning: chunk)
                if announce { onRoom() }
            case .end: continuation.resume(returning: nil)
            case .failure(let error): continuation.resume(throwing: error)
            case .wait: break
            }
        }
    }
}
