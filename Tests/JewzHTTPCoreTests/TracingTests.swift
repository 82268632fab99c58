import InMemoryTracing
@testable import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing
import Tracing

/// The default transport traces each request with a tracer a program bootstrapped, and leaves
/// AsyncHTTPClient's span work out when there is only the no-op tracer.
@Suite struct TracingTests {
    @Test func aRealTracerGetsASpanForEachRequest() async throws {
        let tracer = InMemoryTracer()
        let sandbox = try await Sandbox.start()
        let session = HTTPSession(configuration: .init { $0.customTransport = AsyncHTTPClientTransport(configuration: .init(), tracer: tracer); $0.logger = quietLogger })
        do {
            try await HTTPCycle.get(sandbox.url("/hello"), session: session)
            try await HTTPCycle.post(sandbox.url("/echo"), session: session)
        } catch {
            Issue.record(error)
        }
        try await session.shutdown()
        try await sandbox.shutdown()
        #expect(tracer.finishedSpans.map(\.operationName) == ["GET", "POST"])
    }

    @Test func theNoOpTracerCountsAsNone() {
        #expect(AsyncHTTPClientTransport.spanTracer(NoOpTracer()) == nil)
        #expect(AsyncHTTPClientTransport.spanTracer(nil) == nil)
        #expect(AsyncHTTPClientTransport.spanTracer(InMemoryTracer()) != nil)
    }
}
