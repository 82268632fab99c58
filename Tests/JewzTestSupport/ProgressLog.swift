import JewzLocking

/// Collects progress callbacks as (bytes, total, expected) triples.
public final class ProgressLog: Sendable {
    public init() {}

    private let entries = Mutex<[(Int64, Int64, Int64?)]>([])

    public func record(_ bytes: Int64, _ total: Int64, _ expected: Int64?) {
        entries.withLock { $0.append((bytes, total, expected)) }
    }

    public var all: [(bytes: Int64, total: Int64, expected: Int64?)] { entries.withLock { $0.map { ($0.0, $0.1, $0.2) } } }

    /// Whether the totals grow by each report's bytes, starting after `start`.
    public func isConsistent(from start: Int64 = 0) -> Bool {
        var running = start
        for entry in all {
            running += entry.bytes
            if entry.total != running || entry.bytes <= 0 { return false }
        }
        return true
    }
}

