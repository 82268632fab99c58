/// The outcomes of an origin's calls over the last `span`, in ten buckets, so that what it
/// keeps does not grow with the number of calls.
struct CircuitWindow: Sendable {
    private struct Bucket {
        var start: ContinuousClock.Instant
        var calls = 0
        var failures = 0
    }

    private let span: Duration
    private var buckets: [Bucket] = []

    init(span: Duration) {
        self.span = span
    }

    /// The calls and failures of the window as it stands at `now`.
    mutating func totals(at now: ContinuousClock.Instant) -> (calls: Int, failures: Int) {
        prune(at: now)
        return buckets.reduce((0, 0)) { ($0.0 + $1.calls, $0.1 + $1.failures) }
    }

    /// Counts one call that ended at `now`.
    mutating func record(failed: Bool, at now: ContinuousClock.Instant) {
        prune(at: now)
        let width = span / 10
        if let last = buckets.indices.last, now - buckets[last].start < width {
            buckets[last].calls += 1
            buckets[last].failures += failed ? 1 : 0
        } else {
            buckets.append(Bucket(start: now, calls: 1, failures: failed ? 1 : 0))
        }
    }

    /// Whether no call of the window is left at `now`.
    mutating func isEmpty(at now: ContinuousClock.Instant) -> Bool {
        prune(at: now)
        return buckets.isEmpty
    }

    private mutating func prune(at now: ContinuousClock.Instant) {
        buckets.removeAll { now - $0.start >= span }
    }
}
