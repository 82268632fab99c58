import Jewzruxin

/// The resilience stages as a service turns them on, set so that none changes what a request
/// does (no limit reached, no hedge sent): what each costs by itself.
enum ResilienceStage: String, CaseIterable {
    case breaker, rateLimit = "rate-limit", bulkhead, hedging, all

    /// The stages `RESILIENCE=NAME` puts in the network middleware; none for an unknown name.
    static func stages(named name: String?) -> [any HTTPMiddleware] {
        guard let name, let stage = ResilienceStage(rawValue: name) else { return [] }
        return stage.middleware
    }

    var middleware: [any HTTPMiddleware] {
        switch self {
        case .breaker: [CircuitBreaker()]
        case .rateLimit: [RateLimiter(.init(limits: [RateLimit(requests: 1_000_000_000, per: .seconds(1))]))]
        case .bulkhead: [Bulkhead(maximumConcurrentCalls: 1_024)]
        // Longer than any answer here takes, so that no hedge goes out.
        case .hedging: [Hedging(.init(delay: .fixed(.milliseconds(200))))]
        case .all: [Self.hedging, .breaker, .bulkhead, .rateLimit].flatMap(\.middleware)
        }
    }
}

/// `RESILIENCE=1`: the same GET through a session with each resilience stage on (and all of
/// them) against a session with none, on the same server.
func resilienceCases(hello: String) -> (cases: [Case], sessions: [HTTPSession]) {
    let plain = HTTPSession()
    let without = Contender(name: "HTTPCycle.get, no resilience stage") { try await HTTPCycle.get(hello, session: plain) }
    var sessions = [plain]
    var cases: [Case] = []
    for stage in ResilienceStage.allCases {
        let session = HTTPSession(configuration: .init { $0.networkMiddleware = stage.middleware })
        sessions.append(session)
        cases += atBothConcurrencies(
            "\(stage.rawValue) on",
            Contender(name: "HTTPCycle.get, \(stage.rawValue)") { try await HTTPCycle.get(hello, session: session) }, without)
    }
    return (cases, sessions)
}
