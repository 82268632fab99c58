import Foundation
import JewzLocking
import Logging

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

    // Inlined into its protocol witness, so that the stage is one async frame rather than two:
    // each frame is allocated for every request, and touched again, cold, when its response comes.
    @inline(__always)
    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let call = next.call
        if next.pipeline.hasUserStages { try Self.check(request, prepared: call.request, vettedURL: call.vettedURL) }
        if !next.isShared, call.streamsBody { return try await streaming(request, next: next) }
        return try await sending(request, next: next, into: nil)
    }

    /// The exchange, sent again on another connection when the server did not take it up: a
    /// kept-alive connection that turns out closed, an HTTP/2 stream refused or dropped by a
    /// connection going away (see ``Unprocessed``), at most ``resendLimit`` times; the body
    /// goes into memory, or into `bridge`.
    @inline(__always)
    nonisolated(nonsending) private func sending(_ request: HTTPRequest, next: HTTPNext, into bridge: ResponseBodyChannel?) async throws -> HTTPResponse {
        let started = Self.logStart(of: request, logger: next.configuration.logger)
        let response: HTTPResponse
        do {
            response = try await exchange(request, next: next, into: bridge)
        } catch let failure as Unprocessed {
            response = try await resending(request, next: next, into: bridge, after: failure)
        }
        if let started { Self.logEnd(of: request, response: response, started: started, logger: next.configuration.logger) }
        return response
    }

    /// How many times an exchange the server did not take up is sent again.
    static let resendLimit = 3

    /// Sends an exchange again after `failure`, on another connection, until the server takes
    /// it up or ``resendLimit`` resends were not taken up either. Not inlined: the path few
    /// exchanges take would widen the async frame every one allocates.
    @inline(never)
    nonisolated(nonsending) private func resending(
        _ request: HTTPRequest, next: HTTPNext, into bridge: ResponseBodyChannel?, after failure: Unprocessed
    ) async throws -> HTTPResponse {
        var failure = failure
        for _ in 1...Self.resendLimit {
            Self.logResend(request, failure, logger: next.configuration.logger)
            do {
                return try await exchange(request, next: next, into: bridge)
            } catch let again as Unprocessed {
                failure = again
            }
        }
        throw failure.underlying
    }

    /// An exchange whose body goes to a file or a reader: it runs in a task of its own, which
    /// puts the body into a bounded channel as it arrives, and the response goes back up the
    /// path at its head, with its ``HTTPResponse/body`` reading that channel — so the stages
    /// above can wrap the body, and the run sends it where it goes. A failing status's or a
    /// followed redirect's body stays in memory: that response comes back whole.
    @inline(never)
    nonisolated(nonsending) private func streaming(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let exchange = Mutex<Task<Void, Never>?>(nil)
        let bridge = ResponseBodyChannel { exchange.withLock { $0 }?.cancel() }
        let task = Task {
            do {
                let response = try await sending(request, next: next, into: bridge)
                if !bridge.hasDeliveredHead { bridge.deliverHead(response, bodyFollows: false) }
                bridge.finish(with: nil)
            } catch {
                bridge.finish(with: error)
            }
        }
        exchange.withLock { $0 = task }
        var head = try await withTaskCancellationHandler {
            try await bridge.head()
        } onCancel: {
            bridge.abandon()
        }
        // The collector's head has its body on its way; a whole response does not.
        guard bridge.bodyFollowsHead else { return head }
        head.body = HTTPResponseBody(bridge)
        return head
    }

    /// One exchange on the transport, its body collected into memory or into `bridge`.
    ///
    /// - Throws: ``Unprocessed`` when the server did not take the request up (the caller sends
    ///   it again); the transport's errors.
    // Inlined into `sending`: as a function of its own it is one async frame more per request.
    @inline(__always)
    nonisolated(nonsending) private func exchange(_ request: HTTPRequest, next: HTTPNext, into bridge: ResponseBodyChannel?) async throws -> HTTPResponse {
        let call = next.call
        var collector = ResponseCollector(for: call, shared: next.isShared, bridge: bridge)
        let onBodySent = next.isShared ? nil : call.uploadProgressReporter(for: request)
        do {
            let timeout = try call.remainingTime()
            if let ownTransport = call.ownTransport {
                try await ownTransport.value.send(request, timeout: timeout, onBodySent: onBodySent, to: &collector)
            } else if let defaultTransport {
                try await defaultTransport.send(request, timeout: timeout, onBodySent: onBodySent, to: &collector)
            } else {
                try await transport.send(request, timeout: timeout, onBodySent: onBodySent, to: &collector)
            }
            try collector.finish()
        } catch {
            return try Self.outcome(of: error, collector: collector, request: request)
        }
        return collector.response()
    }

    /// What a failed exchange ends with: a failing status's body cut at its limit is the
    /// response (the status is the outcome); a request the server did not take up is told to
    /// the caller, which sends it again; any other error goes on with what arrived of the body. Not
    /// inlined: the path few exchanges take would widen the async frame every one allocates.
    @inline(never)
    private static func outcome(of error: any Error, collector: ResponseCollector, request: HTTPRequest) throws -> HTTPResponse {
        if let cut = collector.received(afterCut: error) { return cut }
        if let unprocessed = Unprocessed(error, before: collector, request: request) { throw unprocessed }
        throw collector.attachingWhatArrived(to: error)
    }

    /// An exchange the server did not take up, whose request may go again on another
    /// connection: an HTTP/2 stream it refused (`REFUSED_STREAM`: not processed, RFC 9113
    /// §8.7), or a request never sent because its connection began to close, for any method;
    /// and for an idempotent request (or one with an `Idempotency-Key`), a connection or stream lost before
    /// a byte of the answer — a pooled connection the server closed while idle, or a stream
    /// dropped by a connection it is closing (GOAWAY), which is what HTTP/2 servers do every
    /// few hundred or thousand requests. OkHttp and curl send these again unasked. Either way
    /// the body must be replayable.
    struct Unprocessed: Error {
        let underlying: HTTPError

        init?(_ error: any Error, before collector: ResponseCollector, request: HTTPRequest) {
            guard let error = error as? HTTPError, error.code == .connectionLost, !collector.hasReceivedHead,
                request.hasReplayableBody,
                error.isUnprocessed || request.method.isIdempotent || request.headers.contains("Idempotency-Key")
            else { return nil }
            underlying = error
        }
    }

    @inline(never)
    private static func logResend(_ request: HTTPRequest, _ failure: Unprocessed, logger: Logger) {
        logger.debug("\(request.method) \(request.url.redactedString): \(failure.underlying); sending it again on another connection")
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
    private static func logStart(of request: HTTPRequest, logger: Logger) -> ClockReading? {
        guard logger.logLevel <= .debug else { return nil }
        logger.debug("\(request.method) \(request.url.redactedString)")
        return ClockReading.now
    }

    /// Logs a response and how long its exchange took, at debug level.
    @inline(never)
    private static func logEnd(of request: HTTPRequest, response: HTTPResponse, started: ClockReading, logger: Logger) {
        logger.debug("\(response.statusCode) \(request.method) \(request.url.redactedString) in \(ClockReading.now - started)")
    }
}
