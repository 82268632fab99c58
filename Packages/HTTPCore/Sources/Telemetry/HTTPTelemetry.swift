import CoreMetrics
import Foundation
import Tracing

/// What a session's tracing and metrics stages record, by OpenTelemetry's semantic conventions
/// for HTTP clients (<https://opentelemetry.io/docs/specs/semconv/http/>), so a backend's HTTP
/// views read them without a mapping.
package enum HTTPTelemetry {
    /// The tracer a program bootstrapped with `InstrumentationSystem`, or `nil` when it
    /// bootstrapped none: then a session traces nothing and pays nothing for it.
    package static var bootstrappedTracer: (any Tracer)? {
        let tracer = InstrumentationSystem.tracer
        return tracer is NoOpTracer ? nil : tracer
    }

    /// The metrics factory a program bootstrapped with `MetricsSystem`, or `nil` when it
    /// bootstrapped none.
    package static var bootstrappedMetricsFactory: (any MetricsFactory)? {
        let factory = MetricsSystem.factory
        return factory is NOOPMetricsHandler ? nil : factory
    }

    /// The histogram of exchange durations, in seconds.
    package static let requestDuration = "http.client.request.duration"
    /// The number of exchanges in flight.
    package static let activeRequests = "http.client.active_requests"

    /// The conventions' attribute names.
    package enum Attribute {
        package static let method = "http.request.method"
        package static let statusCode = "http.response.status_code"
        package static let resendCount = "http.request.resend_count"
        package static let url = "url.full"
        package static let scheme = "url.scheme"
        package static let serverAddress = "server.address"
        package static let serverPort = "server.port"
        package static let errorType = "error.type"
        package static let protocolVersion = "network.protocol.version"
    }

    /// The conventions' names of the events on a run's span.
    package enum Event {
        /// A retry of the run's request; its attributes say which attempt comes and why.
        package static let retry = "http.retry"
        /// A redirect followed; `url.full` says where.
        package static let redirect = "http.redirect"
    }
}

extension HTTPTelemetry {
    /// `server.address`, `server.port` and `url.scheme` of `url`, the port the scheme's default
    /// when the URL names none, as the conventions ask.
    static func server(of url: URL) -> (address: String, port: Int, scheme: String) {
        (url.host ?? "", url.effectivePort, url.scheme?.lowercased() ?? "http")
    }

    /// `error.type` of a thrown error: an ``HTTPError``'s code (`timedOut`), else the type's name.
    static func errorType(of error: any Error) -> String {
        (error as? HTTPError).map { $0.code.description } ?? String(describing: type(of: error))
    }

    /// `network.protocol.version`: `1.1`, `2`.
    static func protocolVersion(_ version: HTTPVersion) -> String {
        version.minor == 0 && version.major >= 2 ? String(version.major) : "\(version.major).\(version.minor)"
    }
}

extension Span {
    /// Marks the span failed by `error`: `error.type` and the error status.
    func recordFailure(_ error: any Error) {
        attributes[HTTPTelemetry.Attribute.errorType] = HTTPTelemetry.errorType(of: error)
        setStatus(SpanStatus(code: .error, message: String(describing: error)))
    }

    /// Ends the span, marked failed by `error` when there is one.
    func end(failingWith error: (any Error)?) {
        if let error { recordFailure(error) }
        end()
    }

    /// Marks the span failed by a response's status: `error.type` is the code.
    func recordFailure(status: Int) {
        attributes[HTTPTelemetry.Attribute.errorType] = String(status)
        setStatus(SpanStatus(code: .error))
    }
}

/// Writes a tracer's context fields (W3C `traceparent`, `tracestate`) into a request's headers.
struct HTTPHeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaderFields) {
        headers.set(value, for: key)
    }
}
