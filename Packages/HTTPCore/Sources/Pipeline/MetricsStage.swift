import CoreMetrics
import Foundation

/// Counts each exchange on the wire as OpenTelemetry's HTTP client metrics do: its duration in
/// seconds (``HTTPTelemetry/requestDuration``, a histogram) and the exchanges in flight
/// (``HTTPTelemetry/activeRequests``), to the end of a body that streams. In the pipeline only
/// when the session has a metrics factory; beside ``ExchangeTracingStage``, last before the
/// transport.
struct MetricsStage: HTTPMiddleware {
    let factory: any MetricsFactory
    var name: String { "metrics" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let server = HTTPTelemetry.server(of: request.url)
        let dimensions = [
            (HTTPTelemetry.Attribute.method, request.method.rawValue),
            (HTTPTelemetry.Attribute.serverAddress, server.address),
            (HTTPTelemetry.Attribute.serverPort, String(server.port)),
            (HTTPTelemetry.Attribute.scheme, server.scheme),
        ]
        let active = Meter(label: HTTPTelemetry.activeRequests, dimensions: dimensions, factory: factory)
        active.increment()
        let started = ClockReading.now
        var response: HTTPResponse
        do {
            response = try await next(request)
        } catch {
            active.decrement()
            record(since: started, dimensions + [(HTTPTelemetry.Attribute.errorType, HTTPTelemetry.errorType(of: error))])
            throw error
        }
        var outcome = [(HTTPTelemetry.Attribute.statusCode, String(response.statusCode))]
        if let version = response.version {
            outcome.append((HTTPTelemetry.Attribute.protocolVersion, HTTPTelemetry.protocolVersion(version)))
        }
        if response.statusCode >= 400 { outcome.append((HTTPTelemetry.Attribute.errorType, String(response.statusCode))) }
        // A body still arriving: the exchange ends with it.
        let measured = dimensions + outcome
        response.whenBodyEnds { [self] error in
            active.decrement()
            record(since: started, measured + (error.map { [(HTTPTelemetry.Attribute.errorType, HTTPTelemetry.errorType(of: $0))] } ?? []))
        }
        return response
    }

    private func record(since started: ClockReading, _ dimensions: [(String, String)]) {
        let elapsed = (ClockReading.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        Recorder(label: HTTPTelemetry.requestDuration, dimensions: dimensions, aggregate: true, factory: factory).record(seconds)
    }
}
