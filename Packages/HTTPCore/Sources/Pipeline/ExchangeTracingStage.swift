import Foundation
import Tracing

/// A client span for each exchange on the wire — every attempt, every redirect hop — a child
/// of the run's span (``TracingStage``), with the request's trace context (W3C `traceparent`
/// with an OpenTelemetry tracer) injected into its headers; it ends with the response, or with
/// the end of a body that streams. Last before the transport, so its time is the exchange's,
/// not a wait for a place in the queue.
struct ExchangeTracingStage: HTTPMiddleware {
    let tracer: any Tracer
    var name: String { "exchange tracing" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let trace = RunTrace.current
        let resends = trace?.exchangeStarts(request) ?? 0
        let span = tracer.startSpan(request.method.rawValue, context: ServiceContext.current ?? .topLevel, ofKind: .client)
        let server = HTTPTelemetry.server(of: request.url)
        span.attributes[HTTPTelemetry.Attribute.method] = request.method.rawValue
        span.attributes[HTTPTelemetry.Attribute.url] = request.url.redactedString
        span.attributes[HTTPTelemetry.Attribute.serverAddress] = server.address
        span.attributes[HTTPTelemetry.Attribute.serverPort] = server.port
        if resends > 0 { span.attributes[HTTPTelemetry.Attribute.resendCount] = resends }
        var request = request
        tracer.inject(span.context, into: &request.headers, using: HTTPHeaderInjector())
        var response: HTTPResponse
        do {
            // The span is the context of what runs below (the transport's own spans, if any).
            response = try await ServiceContext.$current.withValue(span.context) { try await next(request) }
        } catch {
            trace?.exchangeEnded(status: nil)
            span.end(failingWith: error)
            throw error
        }
        trace?.exchangeEnded(status: response.statusCode)
        span.attributes[HTTPTelemetry.Attribute.statusCode] = response.statusCode
        if let version = response.version {
            span.attributes[HTTPTelemetry.Attribute.protocolVersion] = HTTPTelemetry.protocolVersion(version)
        }
        // The conventions count every 4xx and 5xx as a failed client exchange.
        if response.statusCode >= 400 { span.recordFailure(status: response.statusCode) }
        // A body still arriving: the exchange, and its span, end with it.
        response.whenBodyEnds { span.end(failingWith: $0) }
        return response
    }
}
