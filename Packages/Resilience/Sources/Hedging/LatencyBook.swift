import JewzLocking

/// The latest answers' latencies of each origin, for the hedging delay that follows them: a
/// bounded ring per origin, and a bounded number of origins.
final class LatencyBook: Sendable {
    /// How many latencies an origin keeps: enough for a 95th or 99th percentile to mean
    /// something, few enough to sort at each call.
    static let kept = 128
    /// The fewest latencies a percentile is taken from.
    static let minimumSamples = 20
    private static let maximumOrigins = 1024

    private struct Ring {
        var samples: [Duration] = []
        var next = 0

        mutating func note(_ latency: Duration) {
            if samples.count < LatencyBook.kept {
                samples.append(latency)
            } else {
                samples[next] = latency
            }
            next = (next + 1) % LatencyBook.kept
        }
    }

    private let rings = Mutex<[String: Ring]>([:])

    /// Notes that an attempt to `origin` answered after `latency`.
    func record(_ latency: Duration, for origin: String) {
        rings.withLock { rings in
            if rings[origin] == nil, rings.count >= Self.maximumOrigins { rings.removeAll(keepingCapacity: true) }
            // In place: a copy taken out of the dictionary would copy its samples at each call.
            rings[origin, default: Ring()].note(latency)
        }
    }

    /// The latency within which `share` of `origin`'s kept answers came; `nil` until it has
    /// ``minimumSamples``.
    func percentile(_ share: Double, for origin: String) -> Duration? {
        guard let samples = rings.withLock({ $0[origin]?.samples }), samples.count >= Self.minimumSamples else { return nil }
        let sorted = samples.sorted()
        let rank = Int((min(max(share, 0), 1) * Double(sorted.count - 1)).rounded(.up))
        return sorted[rank]
    }
}
