/// A point on the continuous clock, held as the time since a fixed origin.
///
/// Why not `ContinuousClock.Instant`: the standard library keeps its layout resilient, so every
/// instant a run stores, or keeps across an `await`, costs a metadata lookup, value-witness calls
/// and an allocation of the task's (three of them in the transport stage alone). A `Duration`'s
/// layout is fixed.
struct ClockReading: Comparable, Sendable {
    /// The time since ``origin``.
    private let sinceOrigin: Duration

    private init(sinceOrigin: Duration) {
        self.sinceOrigin = sinceOrigin
    }

    /// The first reading the process took: every reading counts from it.
    private static let origin = ContinuousClock.now

    /// The continuous clock now.
    static var now: ClockReading {
        ClockReading(sinceOrigin: ContinuousClock.now - origin)
    }

    static func + (reading: ClockReading, duration: Duration) -> ClockReading {
        ClockReading(sinceOrigin: reading.sinceOrigin + duration)
    }

    static func - (later: ClockReading, earlier: ClockReading) -> Duration {
        later.sinceOrigin - earlier.sinceOrigin
    }

    static func < (lhs: ClockReading, rhs: ClockReading) -> Bool {
        lhs.sinceOrigin < rhs.sinceOrigin
    }
}
