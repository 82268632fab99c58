import CoreMetrics
import Foundation
import InMemoryTracing
@testable import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import MetricsTestKit
import Testing
import Tracing

/// The session's tracing and metrics stages: a span per run, a child span per exchange, the
/// OpenTelemetry HTTP client conventions' names, and nothing at all without a tracer or backend.
@Suite struct TelemetryTests {
    private func traced(_ tracer: InMemoryTracer? = nil, metrics: TestMetrics? = nil) -> HTTPSession.Configuration {
        var configuration = HTTPSession.Configuration()
        configuration.tracer = tracer
        configuration.metricsFactory = metrics
        configuration.retryPolicy = quickPolicy()
        configuration.logger = quietLogger
        return configuration
    }

    @Test func aRunIsASpanAndEachExchangeAChildWithTheConventionsAttributes() async throws {
        let tracer = InMemoryTracer()
        try await withSandbox(configuration: traced(tracer)) { sandbox, session in
            // A redirect, then a 503 retried once: three exchanges in one run.
            try session.update { $0.retryPolicy.shouldRetry = { $0.error.statusCode == 503 && $0.retryCount == 0 } }
            let target = sandbox.url("/counter?key=traced&fail=1")
            try await HTTPCycle.get(sandbox.url("/redirect/0"), session: session)
            try await HTTPCycle.get(target, session: session)
            let spans = tracer.finishedSpans
            let runs = spans.filter { $0.kind == .internal }
            let exchanges = spans.filter { $0.kind == .client }
            #expect(runs.count == 2)
            #expect(exchanges.count == 4)
            #expect(spans.allSatisfy { $0.operationName == "GET" })
            // Each exchange is a child of its run, in the run's trace.
            for exchange in exchanges {
                let parent = try #require(runs.first { $0.spanID == exchange.parentSpanID })
                #expect(parent.traceID == exchange.traceID)
            }
            let redirect = try #require(runs.first { $0.attributes.get(HTTPTelemetry.Attribute.url) == .string(sandbox.url("/redirect/0")) })
            #expect(redirect.events.map(\.name) == [HTTPTelemetry.Event.redirect])
            #expect(redirect.attributes.get(HTTPTelemetry.Attribute.statusCode) == .int64(200))
            let retried = try #require(runs.first { $0.attributes.get(HTTPTelemetry.Attribute.url) == .string(target) })
            #expect(retried.events.map(\.name) == [HTTPTelemetry.Event.retry])
            #expect(retried.events.first?.attributes.get(HTTPTelemetry.Attribute.statusCode) == .int64(503))
            #expect(retried.status == nil)

            let attempts = exchanges.filter { $0.parentSpanID == retried.spanID }
            let first = try #require(attempts.first { $0.attributes.get(HTTPTelemetry.Attribute.resendCount) == nil })
            #expect(first.attributes.get(HTTPTelemetry.Attribute.method) == .string("GET"))
            #expect(first.attributes.get(HTTPTelemetry.Attribute.url) == .string(target))
            #expect(first.attributes.get(HTTPTelemetry.Attribute.serverAddress) == .string("127.0.0.1"))
            #expect(first.attributes.get(HTTPTelemetry.Attribute.serverPort) == .int64(Int64(sandbox.port)))
            #expect(first.attributes.get(HTTPTelemetry.Attribute.statusCode) == .int64(503))
            #expect(first.attributes.get(HTTPTelemetry.Attribute.errorType) == .string("503"))
            #expect(first.attributes.get(HTTPTelemetry.Attribute.protocolVersion) == .string("1.1"))
            #expect(first.status?.code == .error)
            let second = try #require(attempts.first { $0.attributes.get(HTTPTelemetry.Attribute.resendCount) == .int64(1) })
            #expect(second.attributes.get(HTTPTelemetry.Attribute.statusCode) == .int64(200))
            #expect(second.status == nil)
        }
    }

    @Test func eachExchangeCarriesItsSpansContextOnTheWire() async throws {
        let tracer = InMemoryTracer()
        try await withSandbox(configuration: traced(tracer)) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            let seen = try #require(response.text)
            let exchange = try #require(tracer.finishedSpans.first { $0.kind == .client })
            #expect(seen.contains(exchange.spanID), "\(seen)")
            #expect(seen.contains(InMemoryTracer.spanIDKey), "\(seen)")
            #expect(tracer.performedContextInjections.count == 1)
        }
    }

    @Test func aFailedRunNamesTheErrorAndCredentialsStayOut() async throws {
        let tracer = InMemoryTracer()
        var configuration = traced(tracer)
        configuration.retryPolicy = .never
        let session = HTTPSession(configuration: configuration)
        try await withRefusingPort { port in
            _ = await httpError { try await HTTPCycle.get("http://user:secret@127.0.0.1:\(port)/x", session: session) }
        }
        try await session.shutdown()
        let spans = tracer.finishedSpans
        #expect(spans.count == 2)
        for span in spans {
            #expect(span.attributes.get(HTTPTelemetry.Attribute.errorType) == .string("connectionFailed"))
            #expect(span.status?.code == .error)
            guard case .string(let url) = span.attributes.get(HTTPTelemetry.Attribute.url) else {
                Issue.record("no url.full on \(span.operationName)")
                continue
            }
            #expect(!url.contains("secret"), "\(url)")
        }
    }

    @Test func metricsCountEachExchangesDurationAndWhatIsInFlight() async throws {
        let metrics = TestMetrics()
        try await withSandbox(configuration: traced(metrics: metrics)) { sandbox, session in
            try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            _ = await httpError { try await HTTPCycle.get(sandbox.url("/status/404"), session: session) }
            let base = [
                (HTTPTelemetry.Attribute.method, "GET"), (HTTPTelemetry.Attribute.serverAddress, "127.0.0.1"),
                (HTTPTelemetry.Attribute.serverPort, String(sandbox.port)), (HTTPTelemetry.Attribute.scheme, "http"),
            ]
            let ok = try metrics.expectRecorder(
                HTTPTelemetry.requestDuration,
                base + [(HTTPTelemetry.Attribute.statusCode, "200"), (HTTPTelemetry.Attribute.protocolVersion, "1.1")])
            #expect(ok.values.count == 1)
            #expect(ok.values.allSatisfy { $0 > 0 && $0 < 60 })
            let missing = try metrics.expectRecorder(
                HTTPTelemetry.requestDuration,
                base + [
                    (HTTPTelemetry.Attribute.statusCode, "404"), (HTTPTelemetry.Attribute.protocolVersion, "1.1"),
                    (HTTPTelemetry.Attribute.errorType, "404"),
                ])
            #expect(missing.values.count == 1)
            let active = try metrics.expectMeter(HTTPTelemetry.activeRequests, base)
            #expect(active.values.count == 4)
            #expect(active.lastValue == 0)
        }
    }

    /// A body that streams to a reader keeps its exchange in flight until the reader has it all,
    /// and its duration is recorded then, once.
    @Test func aStreamedExchangeIsInFlightUntilItsBodyEnds() async throws {
        let metrics = TestMetrics()
        try await withSandbox(configuration: traced(metrics: metrics)) { sandbox, session in
            let base = [
                (HTTPTelemetry.Attribute.method, "GET"), (HTTPTelemetry.Attribute.serverAddress, "127.0.0.1"),
                (HTTPTelemetry.Attribute.serverPort, String(sandbox.port)), (HTTPTelemetry.Attribute.scheme, "http"),
            ]
            let cycle = try HTTPCycle(sandbox.url("/download/3000000"), method: .get, session: session)
            let body = try await cycle.startStreaming().body
            var iterator = body.makeAsyncIterator()
            _ = try await iterator.next()
            #expect(try metrics.expectMeter(HTTPTelemetry.activeRequests, base).lastValue == 1)
            while try await iterator.next() != nil {}
            try await waitUntil { (try? metrics.expectMeter(HTTPTelemetry.activeRequests, base).lastValue) == 0 }
            let duration = try metrics.expectRecorder(
                HTTPTelemetry.requestDuration,
                base + [(HTTPTelemetry.Attribute.statusCode, "200"), (HTTPTelemetry.Attribute.protocolVersion, "1.1")])
            #expect(duration.values.count == 1)
        }
    }

    /// The run's and the exchange's spans of a body that streams to a reader end when the
    /// reader has it all.
    @Test func theSpansOfAStreamedRunEndWithItsBody() async throws {
        let tracer = InMemoryTracer()
        try await withSandbox(configuration: traced(tracer)) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/3000000"), method: .get, session: session)
            let body = try await cycle.startStreaming().body
            var iterator = body.makeAsyncIterator()
            _ = try await iterator.next()
            #expect(tracer.finishedSpans.isEmpty, "neither the run's span nor the exchange's ended at the head")
            while try await iterator.next() != nil {}
            try await waitUntil { tracer.finishedSpans.count == 2 }
            let exchange = try #require(tracer.finishedSpans.first { $0.kind == .client })
            let run = try #require(tracer.finishedSpans.first { $0.kind == .internal })
            #expect(exchange.attributes.get(HTTPTelemetry.Attribute.statusCode) == .int64(200))
            #expect(exchange.parentSpanID == run.spanID)
        }
    }

    @Test func withoutATracerOrBackendThePathHasNoTelemetryStage() async throws {
        let plain = HTTPSession(configuration: traced())
        #expect(!plain.stageNames.contains { ["tracing", "exchange tracing", "metrics"].contains($0) })
        let traced = HTTPSession(configuration: traced(InMemoryTracer(), metrics: TestMetrics()))
        #expect(traced.stageNames.first == "tracing")
        #expect(Array(traced.stageNames.suffix(3)) == ["exchange tracing", "metrics", "transport"])
        try await plain.shutdown()
        try await traced.shutdown()
        // Nothing bootstrapped in this process: the defaults are off.
        #expect(HTTPTelemetry.bootstrappedTracer == nil)
        #expect(HTTPTelemetry.bootstrappedMetricsFactory == nil)
    }
}
