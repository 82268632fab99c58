import Foundation
import Logging
import Synchronization

/// The end of the path: one exchange on the session's transport, for a request checked again
/// when a user's middleware may have changed it. Its collector undoes the content codings as
/// the body arrives and sends the body where the run wants it — memory, a download's file, a
/// stream's reader, and a cache's copy —, keeping a failing status's (and a followed
/// redirect's) body in memory, cut at 1 MiB. Never calls `next`.
struct TransportStage: HTTPMiddleware {
    let transport: any HTTPTransport
    /// ``transport`` when it is the default one: called directly, its generic `send` is
    /// specialized for the collector instead of going through witness tables for every request.
    let defaultTransport: AsyncHTTPClientTransport?

    init(transport: any HTTPTransport) {
        self.transport = transport
        defaultTransport = transport as? AsyncHTTPClientTransport
    }

    var name: String { "transport" }

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let run = next.run
        if next.pipeline.hasUserStages { try Self.check(request, prepared: run.request, vettedURL: run.cycle.vettedURL) }
        let started = Self.logStart(of: request, logger: run.session.logger)
        var collector = ResponseCollector(for: run, shared: next.isShared, keeper: next.keeper)
        let onBodySent = next.isShared ? nil : run.uploadProgressReporter(for: request)
        let response: HTTPResponse
        do {
            let timeout = try run.remainingTime()
            if let defaultTransport {
                try await defaultTransport.send(request, timeout: timeout, onBodySent: onBodySent, to: &collector)
            } else {
                try await transport.send(request, timeout: timeout, onBodySent: onBodySent, to: &collector)
            }
            response = try collector.finish()
        } catch {
            // A failing status's body was cut at its limit: the status is the outcome.
            guard let cut = collector.received(afterCut: error) else { throw error }
            response = cut
        }
        if let started { Self.logEnd(of: request, response: response, started: started, logger: run.session.logger) }
        return response
    }

    /// Checks a request a user's middleware may have changed, unless its URL and headers are
    /// still those the run checked when it prepared the request.
    ///
    /// - Throws: ``HTTPError/Code/invalidURL``, ``HTTPError/Code/invalidHeader``.
    @inline(never)
    private static func check(_ request: HTTPRequest, prepared: HTTPRequest, vettedURL: URL?) throws {
        if request.headers.sharesStorage(with: prepared.headers), request.url == prepared.url { return }
        try request.validateForSending(vettedURL: vettedURL)
    }

    /// Logs a request going out at debug level, and returns when it went when that level
    /// prints (the clock is read only then). Not inlined, as the log's temporaries would widen
    /// the stage's async frame.
    @inline(never)
    private static func logStart(of request: HTTPRequest, logger: Logger) -> ContinuousClock.Instant? {
        guard logger.logLevel <= .debug else { return nil }
        logger.debug("\(request.method) \(request.url.redactedString)")
        return .now
    }

    /// Logs a response and how long its exchange took, at debug level.
    @inline(never)
    private static func logEnd(of request: HTTPRequest, response: HTTPResponse, started: ContinuousClock.Instant, logger: Logger) {
        logger.debug("\(response.statusCode) \(request.method) \(request.url.redactedString) in \(.now - started)")
    }
}
