import Foundation
import Tracing

/// A client span for each exchange on the wire — every attempt, every redirect hop — a child
/// of the run's span (``TracingStage``), with the request's trace context (W3C `traceparent`
/// with an OpenTelemetry tracer) injected into its headers. Last before the transport, so its
/// time is the exchange's, not a wait for a place in the queue.
struct ExchangeTracingStage: HTTPMiddleware {
    let tracer: any Tracer
    var name: String { "exchange tracing" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let trace = RunTrace.current
        let resends = trace?.exchangeStarts(request) ?? 0
        return try await tracer.withSpan(request.method.rawValue, ofKind: .client) { span in
            let server = HTTPTelemetry.server(of: request.url)
            span.attributes[HTTPTelemetry.Attribute.method] = request.method.rawValue
            span.attributes[HTTPTelemetry.Attribute.url] = request.url.redactedString
            span.attributes[HTTPTelemetry.Attribute.serverAddress] = server.address
            span.attributes[HTTPTelemetry.Attribute.serverPort] = server.port
            if resends > 0 { span.attributes[HTTPTelemetry.Attribute.resendCount] = resends }
            var request = request
            tracer.inject(span.context, into: &request.headers, using: HTTPHeaderInjector())
            do {
                let response = try await next(request)
                trace?.exchangeEnded(status: response.statusCode)
                span.attributes[HTTPTelemetry.Attribute.statusCode] = response.statusCode
                if let version = response.version {
                    span.attributes[HTTPTelemetry.Attribute.protocolVersion] = HTTPTelemetry.protocolVersion(version)
                }
                // The conventions count every 4xx and 5xx as a failed client exchange.
                if response.statusCode >= 400 { span.recordFailure(status: response.statusCode) }
                return response
            } catch {
                trace?.exchangeEnded(status: nil)
                span.recordFailure(error)
                throw error
            }
        }
    }
}
