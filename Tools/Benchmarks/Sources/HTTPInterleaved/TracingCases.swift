import InMemoryTracing
import Jewzruxin
import MetricsTestKit

/// `TRACING=1`: the same GET through a session with an in-memory tracer (a span per run and
/// per exchange, context injected) and through one with an in-memory metrics backend, against
/// a session with neither, which is what a program that bootstrapped nothing gets.
func tracingCases(hello: String) -> (cases: [Case], sessions: [HTTPSession]) {
    let plain = HTTPSession(configuration: .init { $0.tracer = nil; $0.metricsFactory = nil })
    let tracer = InMemoryTracer()
    let traced = HTTPSession(configuration: .init { $0.tracer = tracer })
    let counted = HTTPSession(configuration: .init { $0.metricsFactory = TestMetrics() })
    let without = Contender(name: "HTTPCycle.get, no telemetry") { try await HTTPCycle.get(hello, session: plain) }
    let cases =
        atBothConcurrencies(
            "in-memory tracer",
            Contender(name: "HTTPCycle.get, in-memory tracer") {
                try await HTTPCycle.get(hello, session: traced)
                // Kept from growing: the spans are the backend's to export, not the benchmark's.
                _ = tracer.popFinishedSpans()
            },
            without)
        + atBothConcurrencies(
            "in-memory metrics",
            Contender(name: "HTTPCycle.get, in-memory metrics") { try await HTTPCycle.get(hello, session: counted) }, without)
    return (cases, [plain, traced, counted])
}
