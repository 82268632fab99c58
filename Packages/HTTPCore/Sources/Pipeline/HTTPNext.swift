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
    /// Whether the exchange below is shared by coalesced cycles: its body stays in memory,
    /// and no one cycle's cancel stops it.
    let isShared: Bool

    /// The largest body a middleware should read into memory: the session's
    /// ``HTTPSession/Configuration/maximumResponseBodySize``, as ``HTTPRequest/collectBody(upTo:)``
    /// takes it.
    public var bodySizeLimit: Int { run.settings.configuration.maximumResponseBodySize }

    /// The cycle this request belongs to; for a GET shared by coalesced cycles, the one that
    /// started the exchange; `nil` for ``HTTPSession/send(_:options:)``.
    package var cycle: HTTPCycle? { run.cycle }

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
        let next = HTTPNext(pipeline: pipeline, position: position + 1, run: run, isShared: isShared)
        if !isUserStage { return try await stage.intercept(request, next: next) }
        do {
            return try await stage.intercept(request, next: next)
        } catch {
            throw HTTPError(middlewareError: error, name: stage.name)
        }
    }

    /// The path below, for an exchange shared by coalesced cycles.
    func shared() -> HTTPNext {
        HTTPNext(pipeline: pipeline, position: position, run: run, isShared: true)
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
