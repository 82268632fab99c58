/// What one run of a cycle is: its generation, clock and the session's settings as read when it
/// started, and the body stream a streaming start reads from.
///
/// Small (the settings are one shared object), so it is a value: the async steps reach it
/// through their ``RunPlan``, and a run allocates no object of its own for it.
struct RunContext: Sendable {
    let generation: Int
    let started: ContinuousClock.Instant
    let settings: HTTPSession.Settings
    let channel: ResponseBodyChannel?

    init(generation: Int, settings: HTTPSession.Settings, channel: ResponseBodyChannel?) {
        self.generation = generation
        started = .now
        self.settings = settings
        self.channel = channel
    }
}

/// A run's prepared request and what its attempts share: where the body goes, who answers a
/// challenge, the retry policy and the response processors.
final class RunPlan {
    let run: RunContext
    let request: HTTPRequest
    let transfer: Transfer
    let authentications: [any HTTPAuthentication]
    /// The cycle's own retry policy (`nil`: the session's, see ``retryPolicy``).
    let ownRetryPolicy: RetryPolicy?
    /// The cycle's own response processors (`nil`: the session's, then the registry's).
    let responseProcessors: [any HTTPProcessor]?
    let solicited: Bool

    init(
        run: RunContext, request: HTTPRequest, transfer: Transfer, authentications: [any HTTPAuthentication],
        ownRetryPolicy: RetryPolicy?, responseProcessors: [any HTTPProcessor]?, solicited: Bool
    ) {
        self.run = run
        self.request = request
        self.transfer = transfer
        self.authentications = authentications
        self.ownRetryPolicy = ownRetryPolicy
        self.responseProcessors = responseProcessors
        self.solicited = solicited
    }

    /// The policy that decides on retries: read only after a failure, so that a run that
    /// succeeds copies none of the session's (whose closures every concurrent run shares).
    var retryPolicy: RetryPolicy { ownRetryPolicy ?? run.settings.values.retryPolicy }
}
