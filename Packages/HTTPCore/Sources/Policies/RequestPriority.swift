/// How urgently a cycle waiting in a session's queue should be sent; higher goes first,
/// equal priorities in arrival order.
public struct RequestPriority: RawRepresentable, Sendable, Hashable, Comparable {
    /// The priority as a number: higher goes first.
    public var rawValue: Int

    /// The priority `rawValue`; any number between the named ones is allowed.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Behind everything else: prefetches, background refreshes.
    public static let low = RequestPriority(rawValue: -100)
    /// The default.
    public static let normal = RequestPriority(rawValue: 0)
    /// Ahead of everything else: what a person is waiting for.
    public static let high = RequestPriority(rawValue: 100)

    /// Whether `lhs` goes after `rhs`.
    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension RequestPriority {
    /// The queue's priority of a task of `priority`: `.high` for `.high` (and
    /// `.userInitiated`), `.normal` for `.medium`, `.low` below it.
    init(_ priority: TaskPriority) {
        self = priority >= .high ? .high : priority >= .medium ? .normal : .low
    }
}
