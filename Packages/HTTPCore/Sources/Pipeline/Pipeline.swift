/// The request path of a session, in order: the one list of every stage a request goes
/// through, the built-in ones and the user's. ARCHITECTURE.md draws it.
///
/// A stage that is not configured is not in the list: a plain GET goes through retry,
/// redirects and the transport, nothing else. A session keeps one pipeline for its
/// configuration; a run that needs another (a download, authentications where the session has
/// none) gets its own.
final class Pipeline: Sendable {
    let stages: [any HTTPMiddleware]
    /// Which stages are the user's: their errors are named.
    private let userStages: [Bool]
    /// Whether any stage is the user's: then a request is checked again before the wire, as a
    /// middleware may have changed it.
    let hasUserStages: Bool

    /// What a pipeline is made of besides the configuration: the session's shared parts.
    struct Parts: Sendable {
        let transport: any HTTPTransport
        let queue: RequestQueue
        let coalescer: SingleFlight<CoalescingStage.Key, HTTPResponse>
    }

    /// One entry of the order: built-in stages and the user's middleware.
    private enum Step {
        case builtIn(any HTTPMiddleware)
        case user([any HTTPMiddleware])
        case absent
    }

    /// The request path for `configuration`.
    ///
    /// - Parameters:
    ///   - authenticates: whether the call has authentications (the options', else the session's).
    ///   - download: the run's download, whose attempts continue what earlier ones wrote.
    ///   - bodyInMemory: whether the run's body ends in memory, so that an identical GET's
    ///     exchange may be shared with it (a stream is read once, a file written once).
    ///   - queues: whether requests may have to wait for a place (a maximum, or a pause).
    init(
        _ configuration: HTTPSession.Configuration, parts: Parts, authenticates: Bool, download: DownloadTarget?,
        bodyInMemory: Bool, queues: Bool
    ) {
        let order: [Step] = [
            configuration.tracer.map { .builtIn(TracingStage(tracer: $0)) } ?? .absent,  // a span per call
            .user(configuration.middleware),  // the caller's steps, once per call
            .builtIn(RetryStage()),  // attempts, and the retry policy between them
            download.map { .builtIn(ResumeStage(target: $0)) } ?? .absent,  // Range for what is written
            configuration.followsRedirects ? .builtIn(RedirectStage()) : .absent,  // each hop below
            authenticates ? .builtIn(AuthenticationStage()) : .absent,  // credentials, 401/407
            configuration.cache.map { .builtIn(CacheStage(cache: $0)) } ?? .absent,  // stored answers
            configuration.cookieJar.map { .builtIn(CookieStage(jar: $0)) } ?? .absent,  // Cookie, Set-Cookie
            .user(configuration.networkMiddleware),  // the caller's steps, per exchange on the wire
            configuration.coalescesIdenticalGETs && bodyInMemory ? .builtIn(CoalescingStage(flights: parts.coalescer)) : .absent,
            queues ? .builtIn(QueueStage(queue: parts.queue)) : .absent,  // a place on the network
            configuration.tracer.map { .builtIn(ExchangeTracingStage(tracer: $0)) } ?? .absent,  // a span per exchange
            configuration.metricsFactory.map { .builtIn(MetricsStage(factory: $0)) } ?? .absent,  // its duration
            .builtIn(TransportStage(transport: parts.transport)),  // the wire, content decoding
        ]
        var stages: [any HTTPMiddleware] = []
        var userStages: [Bool] = []
        for step in order {
            switch step {
            case .builtIn(let stage):
                stages.append(stage)
                userStages.append(false)
            case .user(let middleware):
                stages += middleware
                userStages += repeatElement(true, count: middleware.count)
            case .absent:
                continue
            }
        }
        self.stages = stages
        self.userStages = userStages
        hasUserStages = userStages.contains(true)
    }

    /// The stages' names, in order.
    var names: [String] { stages.map(\.name) }

    /// Whether the stage at `position` is one of the user's (`false` out of range).
    func isUserStage(_ position: Int) -> Bool {
        userStages.indices.contains(position) && userStages[position]
    }
}
