import JewzHTTPCore
import JewzResilience

/// The resilience stages a configuration reads, each on when one of its keys is there; kept as
/// values, so that a reload that leaves a stage's settings as they were keeps the stage, and
/// with it what it learnt (an open circuit, a rate limit an origin announced).
struct ResilienceSettings: Equatable {
    struct Breaker: Equatable {
        var failureRatio: Double, minimumCalls: Int, window: Duration, openDuration: Duration, probes: Int
    }
    struct Compartments: Equatable {
        var maximumConcurrentCalls: Int, maximumWaitingCalls: Int
    }
    struct Rate: Equatable {
        var limits: [RateLimit], learnsFromServers: Bool, maximumWait: Duration
    }
    struct Hedge: Equatable {
        var delay: Hedging.Delay, maximumAttempts: Int
    }

    var hedging: Hedge?
    var breaker: Breaker?
    var bulkhead: Compartments?
    var rateLimit: Rate?

    init(_ reader: SettingsReader) throws(SessionConfigurationError) {
        let defaults = CircuitBreaker.Configuration()
        if ["failureRatio", "minimumCalls", "window", "openDuration", "probes"].contains(where: { reader.has("circuitBreaker.\($0)") }) {
            breaker = Breaker(
                failureRatio: try reader.double("circuitBreaker.failureRatio", in: 0...1) ?? defaults.failureRatio,
                minimumCalls: try reader.int("circuitBreaker.minimumCalls", atLeast: 1) ?? defaults.minimumCalls,
                window: try reader.seconds("circuitBreaker.window") ?? defaults.window,
                openDuration: try reader.seconds("circuitBreaker.openDuration") ?? defaults.openDuration,
                probes: try reader.int("circuitBreaker.probes", atLeast: 1) ?? defaults.probes)
        }
        if let concurrent = try reader.int("bulkhead.maximumConcurrentCalls", atLeast: 1) {
            bulkhead = Compartments(maximumConcurrentCalls: concurrent, maximumWaitingCalls: try reader.int("bulkhead.maximumWaitingCalls", atLeast: 0) ?? 0)
        } else if reader.has("bulkhead.maximumWaitingCalls") {
            throw .invalid("bulkhead.maximumConcurrentCalls", expected: "a whole number of 1 or more, as bulkhead.maximumWaitingCalls needs it")
        }
        let limiterDefaults = RateLimiter.Configuration()
        if ["requests", "window", "learnsFromServers", "maximumWait"].contains(where: { reader.has("rateLimit.\($0)") }) {
            var limits: [RateLimit] = []
            if let requests = try reader.int("rateLimit.requests", atLeast: 1) {
                limits.append(RateLimit(requests: requests, per: try reader.seconds("rateLimit.window") ?? .seconds(1)))
            } else if reader.has("rateLimit.window") {
                throw .invalid("rateLimit.requests", expected: "a whole number of 1 or more, as rateLimit.window needs it")
            }
            rateLimit = Rate(
                limits: limits, learnsFromServers: try reader.bool("rateLimit.learnsFromServers") ?? limiterDefaults.learnsFromServers,
                maximumWait: try reader.seconds("rateLimit.maximumWait") ?? limiterDefaults.maximumWait)
        }
        if ["delay", "percentile", "maximumAttempts"].contains(where: { reader.has("hedging.\($0)") }) {
            let delay: Hedging.Delay
            if let fixed = try reader.seconds("hedging.delay") {
                delay = .fixed(fixed)
            } else {
                delay = .percentile(try reader.double("hedging.percentile", in: 0.5...1) ?? 0.95, minimum: .milliseconds(10))
            }
            hedging = Hedge(delay: delay, maximumAttempts: try reader.int("hedging.maximumAttempts", atLeast: 1) ?? 2)
        }
    }

    /// The stages these settings make, in the order they go first in `networkMiddleware`
    /// (hedging first, so that each hedge passes the others); those of `previous` whose settings
    /// did not change are kept.
    func stages(reusing previous: ResilienceStages?) -> ResilienceStages {
        var stages = ResilienceStages(settings: self)
        let kept = previous.flatMap { $0.settings }
        if let hedging {
            stages.hedging = kept?.hedging == hedging ? previous?.hedging : Hedging(.init(delay: hedging.delay, maximumAttempts: hedging.maximumAttempts))
        }
        if let breaker {
            stages.breaker = kept?.breaker == breaker ? previous?.breaker : CircuitBreaker(.init(
                failureRatio: breaker.failureRatio, minimumCalls: breaker.minimumCalls, window: breaker.window,
                openDuration: breaker.openDuration, probes: breaker.probes))
        }
        if let bulkhead {
            stages.bulkhead = kept?.bulkhead == bulkhead ? previous?.bulkhead : Bulkhead(
                maximumConcurrentCalls: bulkhead.maximumConcurrentCalls, maximumWaitingCalls: bulkhead.maximumWaitingCalls)
        }
        if let rateLimit {
            stages.rateLimiter = kept?.rateLimit == rateLimit ? previous?.rateLimiter : RateLimiter(.init(
                limits: rateLimit.limits, learnsFromServers: rateLimit.learnsFromServers, maximumWait: rateLimit.maximumWait))
        }
        return stages
    }
}

/// The resilience stages a configuration made, with the settings they were made from.
struct ResilienceStages {
    var settings: ResilienceSettings?
    var hedging: Hedging?
    var breaker: CircuitBreaker?
    var bulkhead: Bulkhead?
    var rateLimiter: RateLimiter?

    /// These stages with the session's own instances of them, found in `middleware`, in place of
    /// the ones made here: a session made by `HTTPSession.Configuration(config:base:)`
    /// has its own, which following it keeps.
    func adopting(_ middleware: [any HTTPMiddleware]) -> ResilienceStages {
        var adopted = self
        if hedging != nil, let own = middleware.lazy.compactMap({ $0 as? Hedging }).first { adopted.hedging = own }
        if breaker != nil, let own = middleware.lazy.compactMap({ $0 as? CircuitBreaker }).first { adopted.breaker = own }
        if bulkhead != nil, let own = middleware.lazy.compactMap({ $0 as? Bulkhead }).first { adopted.bulkhead = own }
        if rateLimiter != nil, let own = middleware.lazy.compactMap({ $0 as? RateLimiter }).first { adopted.rateLimiter = own }
        return adopted
    }

    var middleware: [any HTTPMiddleware] {
        let stages: [(any HTTPMiddleware)?] = [hedging, breaker, bulkhead, rateLimiter]
        return stages.compactMap { $0 }
    }
}
