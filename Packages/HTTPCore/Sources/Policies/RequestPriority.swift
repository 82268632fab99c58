/// How urgently a cycle waiting in a session's queue should be sent; higher goes first,
/// equal priorities in arrival order.
public struct RequestPriority: RawRepresentable, Sendable, Hashable, Comparable {
    public var rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    public static let low = RequestPriority(rawValue: -100)
    public static let normal = RequestPriority(rawValue: 0)
    public static let high = RequestPriority(rawValue: 100)

    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension RequestPriority {
    /// The queue's priority of a task of `priority`: `.high` for `.high` (and
    /// `.userInitiated`), `.normal` for `.medium`, `.low` below it.
    init(_ priority: TaskPriority) {
        self = priority >= .high ? .high : priority >= .medium ? .normal : .low
    }
}
