import Foundation

/// The rest of a session's request path, handed to each ``HTTPMiddleware``: call it with the
/// request to pass it on, and get the response back.
///
/// It may be called several times, and from other tasks (it is `Sendable`): each call runs
/// the stages after yours again. A call cancelled meanwhile makes it throw
/// ``HTTPError/Code/cancelled``. Call it while your `intercept` runs, not after.
public struct HTTPNext: Sendable {
    let pipeline: Pipeline
    /// The stage this call runs.
    let position: Int
    let call: HTTPCall
    /// Whether the exchange below is shared by coalesced calls: its body stays in memory,
    /// and no one call's cancel stops it.
    let isShared: Bool

    /// The largest body a middleware should read into memory: the session's
    /// ``HTTPSession/Configuration/maximumResponseBodySize``, as ``HTTPRequest/collectBody(upTo:)``
    /// takes it.
    public var bodySizeLimit: Int { call.settings.configuration.maximumResponseBodySize }

    /// The options the call was made with: where a middleware reads its own per-call settings
    /// (``HTTPRequestOptionKey``), and what the call overrides of the session's.
    public var options: HTTPRequestOptions {
        _read { yield call.options }
    }

    /// The settings of the session the call runs in, as they were when the call started.
    public var configuration: HTTPSession.Configuration {
        _read { yield call.settings.configuration }
    }

    /// What is left of the call's time (its options' or its session's `timeoutForResource`);
    /// `nil` when it has no limit, zero or less when the time is up.
    public var remainingTime: Duration? {
        call.deadline.map { $0 - ClockReading.now }
    }

    /// Whether credentials may go with a request for `url` in this call: it is on the origin
    /// (scheme, host and port) the call started at, or the session sends credentials across
    /// redirects (``HTTPSession/Configuration-swift.struct/sendsCredentialsAcrossRedirects``).
    ///
    /// A middleware that adds credentials of its own — a signer, an API key, a token — asks
    /// this before adding them, so that a redirect to another origin never carries them, as
    /// the built-in authentications never do:
    ///
    /// ```swift
    /// let key = "3f2c"
    /// func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
    ///     guard next.mayCarryCredentials(to: request.url) else { return try await next(request) }
    ///     var signed = request
    ///     signed.headers["X-Api-Key"] = key
    ///     return try await next(signed)
    /// }
    /// ```
    public func mayCarryCredentials(to url: URL) -> Bool {
        url.origin == call.request.url.origin || call.settings.configuration.sendsCredentialsAcrossRedirects
    }

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
        // which wait only in ways that hear a cancel, the call's own flag is enough.
        try call.checkCancellation(sharing: isShared, includingTask: isUserStage || position == pipeline.stages.count - 1)
        let stage = pipeline.stages[position]
        call.emit(.stageEntered(stage.name, request: request))
        let next = HTTPNext(pipeline: pipeline, position: position + 1, call: call, isShared: isShared)
        if !isUserStage { return try await stage.intercept(request, next: next) }
        do {
            return try await stage.intercept(request, next: next)
        } catch {
            throw HTTPError(middlewareError: error, name: stage.name)
        }
    }

    /// The path below, for an exchange shared by coalesced calls.
    func shared() -> HTTPNext {
        HTTPNext(pipeline: pipeline, position: position, call: call, isShared: true)
    }
}

extension HTTPError {
    /// What a user's middleware threw, as the call reports it: an ``HTTPError`` or a
    /// cancellation as it is, anything else wrapped with the middleware's name.
    init(middlewareError error: any Error, name: String) {
        switch error {
        case let error as HTTPError: self = error
        case is CancellationError: self = .cancelled(explicitly: false)
        default: self = .middleware(name: name, underlying: error)
        }
    }
}
