/// What one run reads when it starts: the cycle's setting where it has one, else the
/// session's, decided here once so that no later stage asks again. A settings change applies
/// from the next run.
struct RunSnapshot {
    /// The session's settings as they were when the run started (one shared object).
    let session: HTTPSession.Settings
    /// The request as the cycle holds it, before the run prepares it.
    let request: HTTPRequest
    let requestProcessors: [any HTTPProcessor]
    let responseProcessors: [any HTTPProcessor]
    /// Whether the registry picks the response processor by Content-Type: neither the cycle
    /// nor the session names processors (an empty list on the cycle turns processing off).
    let processesByContentType: Bool
    let authentications: [any HTTPAuthentication]
    /// Held by reference: a run that never fails never copies the policy's sets and closures,
    /// which every concurrent run of the session shares.
    let retryPolicy: Boxed<RetryPolicy>
    let solicited: Bool

    init(cycle: HTTPCycle.Settings, session: HTTPSession.Settings) {
        self.session = session
        request = cycle.request
        requestProcessors = cycle.requestProcessors ?? session.values.requestProcessors
        responseProcessors = cycle.responseProcessors ?? session.values.responseProcessors
        processesByContentType = cycle.responseProcessors == nil && session.values.responseProcessors.isEmpty
        authentications = cycle.authentications ?? session.values.authentications
        retryPolicy = cycle.$retryPolicy ?? session.values.retryPolicy
        solicited = cycle.solicited
    }

    var eventMonitors: [any HTTPEventMonitor] { session.values.eventMonitors }
}
