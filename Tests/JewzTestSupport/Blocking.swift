import Dispatch

/// Runs blocking work (waiting on a process or a socket) on a Dispatch thread, so it never holds
/// one of the few threads of Swift's cooperative pool that every other test needs.
public func runBlocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try work() })
        }
    }
}
