import CoreMetrics
import JewzLocking

/// Counts the resilience stages' counters during `jewz bench` (hedges sent and won, calls a
/// rate limit held or refused, calls an open circuit refused), so that its report says what
/// they did; a program's own metrics backend sees the same counters.
final class BenchMetrics: MetricsFactory, Sendable {
    private let totals = Mutex<[String: Int64]>([:])

    /// The total of every counter whose label is `label`, whatever its dimensions.
    func total(_ label: String) -> Int64 {
        totals.withLock { $0[label] ?? 0 }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        Tally(label: label, totals: self)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        NOOPMetricsHandler.instance
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        NOOPMetricsHandler.instance
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}

    fileprivate func add(_ amount: Int64, to label: String) {
        totals.withLock { $0[label, default: 0] += amount }
    }

    private final class Tally: CounterHandler, Sendable {
        let label: String
        let totals: BenchMetrics

        init(label: String, totals: BenchMetrics) {
            self.label = label
            self.totals = totals
        }

        func increment(by amount: Int64) { totals.add(amount, to: label) }
        func reset() {}
    }
}
