import Foundation
import JewzLocking
import Tracing

/// A span for each call, around everything else: the request as the caller made it,
/// the final response after retries, redirects and challenges, and an event for each retry and
/// redirect (``ExchangeTracingStage`` adds a child span per exchange); it ends with the response,
/// or with the end of a body that streams. In the pipeline only when the session has a tracer.
struct TracingStage: HTTPMiddleware {
    let tracer: any Tracer
    var name: String { "tracing" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let span = tracer.startSpan(request.method.rawValue, context: ServiceContext.current ?? .topLevel, ofKind: .internal)
        span.attributes[HTTPTelemetry.Attribute.method] = request.method.rawValue
        span.attributes[HTTPTelemetry.Attribute.url] = request.url.redactedString
        let trace = RunTrace(span: span)
        var response: HTTPResponse
        do {
            // The span is the context of the stages below, whose exchanges are its children.
            response = try await ServiceContext.$current.withValue(span.context) {
                try await RunTrace.$current.withValue(trace) { try await next(request) }
            }
        } catch {
            span.end(failingWith: error)
            throw error
        }
        span.attributes[HTTPTelemetry.Attribute.statusCode] = response.statusCode
        if next.configuration.shouldTreatStatusCodeAsFailure(response.statusCode) { span.recordFailure(status: response.statusCode) }
        // A body still on its way to a reader: the run ends with it.
        response.whenBodyEnds { span.end(failingWith: $0) }
        return response
    }
}

/// What a run's span learns from its exchanges: how many went out, and how the last ended, so
/// the next one is named a retry or a redirect.
final class RunTrace: Sendable {
    /// The run's trace, for the exchanges below its stage.
    @TaskLocal static var current: RunTrace?

    let span: any Span
    private let state = Mutex<(exchanges: Int, lastStatus: Int?)>((0, nil))

    init(span: any Span) {
        self.span = span
    }

    /// Counts an exchange that starts, and adds the event that explains it to the run's span
    /// when it is not the first. Returns how many went before it.
    func exchangeStarts(_ request: HTTPRequest) -> Int {
        let (earlier, lastStatus) = state.withLock { state in
            defer { state.exchanges += 1 }
            return (state.exchanges, state.lastStatus)
        }
        guard earlier > 0 else { return 0 }
        let redirected = lastStatus.map { (300..<400).contains($0) } ?? false
        var attributes = SpanAttributes()
        attributes[HTTPTelemetry.Attribute.resendCount] = earlier
        attributes[HTTPTelemetry.Attribute.url] = request.url.redactedString
        if let lastStatus { attributes[HTTPTelemetry.Attribute.statusCode] = lastStatus }
        span.addEvent(SpanEvent(name: redirected ? HTTPTelemetry.Event.redirect : HTTPTelemetry.Event.retry, attributes: attributes))
        return earlier
    }

    /// Notes how an exchange ended: its status, or `nil` for an error.
    func exchangeEnded(status: Int?) {
        state.withLock { $0.lastStatus = status }
    }
}
