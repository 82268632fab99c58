import Synchronization

/// `body`'s result, or `DeadlineExceeded` when it takes longer than `limit` (the body is then
/// cancelled).
func withDeadline<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw DeadlineExceeded(limit: limit)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw DeadlineExceeded(limit: limit) }
        return first
    }
}

struct DeadlineExceeded: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "not done within \(limit)" }
}

/// Waits until `condition` holds, checking every 20 ms, for at most `limit`.
func waitUntil(_ limit: Duration = .seconds(30), _ condition: @escaping @Sendable () async throws -> Bool) async throws {
    try await withDeadline(limit) {
        while try await !condition() {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// A value tasks share, behind a lock; a class, so that a task's closure holds the same one.
final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) {
        storage = Mutex(value)
    }

    func withLock<T: Sendable>(_ body: (inout sending Value) -> T) -> T {
        storage.withLock { body(&$0) }
    }
}
