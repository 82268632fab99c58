import Foundation

/// The rest of a session's request path, handed to each ``HTTPMiddleware``: call it with the
/// request to pass it on, and get the response back.
///
/// It may be called several times, and from other tasks (it is `Sendable`): each call runs
/// the stages after yours again. A cycle cancelled meanwhile makes it throw
/// ``HTTPError/Code/cancelled``. Call it while your `intercept` runs, not after.
public struct HTTPNext: Sendable {
    let pipeline: Pipeline
    /// The stage this call runs.
    let position: Int
    let run: RequestRun
    /// Where the caller wants a copy of the body of the response this call returns.
    let keeper: HTTPBodyKeeper?
    /// Whether the exchange below is shared by coalesced cycles: its body stays in memory,
    /// and no one cycle's cancel stops it.
    let isShared: Bool

    /// The largest body a middleware should read into memory: the session's
    /// ``HTTPSession/Configuration/maximumResponseBodySize``, as ``HTTPRequest/collectBody(upTo:)``
    /// takes it.
    public var bodySizeLimit: Int { run.settings.configuration.maximumResponseBodySize }

    /// The cycle this request belongs to; for a GET shared by coalesced cycles, the one that
    /// started the exchange; `nil` for ``HTTPSession/send(_:options:)``.
    public var cycle: HTTPCycle? { run.cycle }

    /// Sends `request` through the rest of the path.
    ///
    /// - Throws: ``HTTPError``: what the stages after this one threw (among them
    ///   ``HTTPError/Code/invalidURL`` or ``HTTPError/Code/invalidHeader`` when a middleware
    ///   passed on a request that cannot go on the wire); ``HTTPError/Code/cancelled``.
    @inline(__always)
    nonisolated(nonsending) public func callAsFunction(_ request: HTTPRequest) async throws -> HTTPResponse {
        // The transport stage is always last and never calls `next`: getting here is a bug in
        // a built-in stage, not something a user's middleware can cause.
        precondition(position < pipeline.stages.count, "HTTPNext was called past the transport, the last stage of the path")
        let isUserStage = pipeline.isUserStage(position)
        // The task is asked before a user's stage and before the wire; between built-in stages,
        // which wait only in ways that hear a cancel, the cycle's generation is enough.
        try run.checkCancellation(sharing: isShared, includingTask: isUserStage || position == pipeline.stages.count - 1)
        let stage = pipeline.stages[position]
        run.emit(.stageEntered(stage.name, request: request))
        let next = HTTPNext(pipeline: pipeline, position: position + 1, run: run, keeper: nil, isShared: isShared)
        let response: HTTPResponse
        if !isUserStage {
            response = try await stage.intercept(request, next: next)
        } else {
            do {
                response = try await stage.intercept(request, next: next)
            } catch {
                throw HTTPError(middlewareError: error, name: stage.name)
            }
        }
        guard let keeper else { return response }
        return Self.copying(response, to: keeper)
    }

    /// `response` with its body copied to the writer `keeper` chooses from its head: a body
    /// still arriving as it is read (the writer finished at its end, told if it fails), one in
    /// memory at once.
    @inline(never)
    private static func copying(_ response: HTTPResponse, to keeper: HTTPBodyKeeper) -> HTTPResponse {
        var head = response
        head.data = Data()
        head.stream = nil
        guard let writer = keeper(head) else { return response }
        guard let stream = response.stream else {
            if !response.isBodyDelivered { response.data.withUnsafeBytes { writer.write($0) } }
            writer.finish()
            return response
        }
        var copied = response
        copied.stream = stream
            .map { chunk in
                chunk.withUnsafeBytes { writer.write($0) }
                return chunk
            }
            .whenFinished { error in if error == nil { writer.finish() } else { writer.fail() } }
        return copied
    }

    /// The path below, with a copy of each response body it returns going where `keeper`
    /// chooses from its head — besides wherever the body goes (memory, a download's file, a
    /// stream's reader) and besides any copy asked for above. A body still arriving
    /// (``HTTPResponse/stream``) is copied as it is read, one in memory at once, content codings
    /// undone either way; the writer's `finish()` is called once the body is whole, its `fail()`
    /// when the transfer breaks. How the cache and the HAR recorder keep bodies.
    ///
    /// ```swift
    /// let digest = DigestWriter()     // an HTTPResponseBodyWriter of yours
    /// let response = try await next.copyingBody { _ in digest }(request)
    /// ```
    public func copyingBody(to keeper: @escaping HTTPBodyKeeper) -> HTTPNext {
        guard let existing = self.keeper else { return keeping(keeper) }
        return keeping { head in BodyWriterPair.joining(existing(head), keeper(head)) }
    }

    /// The path below, with `keeper` instead of the copies asked for so far.
    func keeping(_ keeper: HTTPBodyKeeper?) -> HTTPNext {
        HTTPNext(pipeline: pipeline, position: position, run: run, keeper: keeper, isShared: isShared)
    }

    /// The path below, for an exchange shared by coalesced cycles.
    func shared() -> HTTPNext {
        HTTPNext(pipeline: pipeline, position: position, run: run, keeper: nil, isShared: true)
    }
}

extension HTTPError {
    /// What a user's middleware threw, as the cycle reports it: an ``HTTPError`` or a
    /// cancellation as it is, anything else wrapped with the middleware's name.
    init(middlewareError error: any Error, name: String) {
        switch error {
        case let error as HTTPError: self = error
        case is CancellationError: self = .cancelled(explicitly: false)
        default: self = .middleware(name: name, underlying: error)
        }
    }
}
