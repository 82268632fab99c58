import Foundation
import Configuration
import JewzConfiguration
import JewzLifecycle
import JewzSandbox
import Jewzruxin
import Logging
import ServiceLifecycle

/// The tour's steps about a session inside a service: resilience to a failing dependency, and a
/// graceful shutdown with the program.
extension TourStep {
    static func resilienceSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "A circuit breaker per origin fails fast while a dependency is down, then lets a probe test it",
                code: """
                    let breaker = CircuitBreaker(.init(failureRatio: 0.5, minimumCalls: 4, openDuration: .seconds(15)))
                    let session = HTTPSession(configuration: .init { $0.networkMiddleware = [breaker]; $0.retryPolicy = .never })
                    for _ in 0..<4 { _ = try? await HTTPCycle.get(url("/status/503"), session: session) }
                    try await HTTPCycle.get(url("/hello/"), session: session)   // refused at once: circuitOpen
                    breaker.state(of: url(""))                                   // .open(until: …), then .halfOpen, .closed
                    """
            ) {
                let breaker = CircuitBreaker(.init(failureRatio: 0.5, minimumCalls: 4, openDuration: .seconds(15)))
                let session = HTTPSession(configuration: .init { $0.networkMiddleware = [breaker]; $0.retryPolicy = .never })
                for _ in 0..<4 { _ = try? await HTTPCycle.get(url("/status/503"), session: session) }
                let refused: String
                do {
                    _ = try await HTTPCycle.get(url("/hello/"), session: session)
                    refused = "let through"
                } catch let error as HTTPError {
                    refused = (error.underlying as? ResilienceError).map { "\($0.code)" } ?? "\(error.code)"
                }
                let open = if case .open = breaker.state(of: url("")) { true } else { false }
                try await session.shutdown()
                return Outcome("refused: \(refused), open: \(open)", expected: "refused: circuitOpen, open: true")
            },
            TourStep(
                title: "A rate limiter follows the limit a server announces (RateLimit-Policy): 12 calls at once, 5 a second, no 429",
                code: """
                    let session = HTTPSession(configuration: .init { $0.networkMiddleware = [RateLimiter()] })   // or .init(limits: [RateLimit(requests: 5, per: .seconds(1))])
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for _ in 0..<12 { group.addTask { try await HTTPCycle.get(url("/ratelimited?key=tour&limit=5&window=1"), session: session).statusCode } }
                    }
                    """
            ) {
                let session = HTTPSession(configuration: .init { $0.networkMiddleware = [RateLimiter()] })
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for _ in 0..<12 {
                        group.addTask { try await HTTPCycle.get(url("/ratelimited?key=tour-rate&limit=5&window=1"), session: session).statusCode }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                try await session.shutdown()
                let refused = sandbox.router.rateLimitCounts(forKey: "tour-rate").refused
                return Outcome("\(statuses.filter { $0 == 200 }.count) answered, \(refused) refused", expected: "12 answered, 0 refused")
            },
            TourStep(
                title: "jewz --rate 4/s in a script: runs at the same time share their turns through a file per origin, no 429",
                code: """
                    for i in $(seq 10); do jewz --rate 4/s "$URL/ratelimited?limit=4&window=1" & done; wait
                    // Each run takes its turn from ~/.local/state/jewz/rate/ORIGIN under a lock; here two
                    // sessions with the same stage stand in for the runs:
                    let stage = SharedRateLimit(limit: RateLimit(requests: 4, per: .seconds(1)), directory: turns)
                    """
            ) {
                let turns = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-tour-rate-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: turns) }
                let stage = SharedRateLimit(limit: RateLimit(requests: 4, per: .seconds(1)), directory: turns)
                let runs = (0..<2).map { _ in HTTPSession(configuration: .init { $0.networkMiddleware = [stage]; $0.retryPolicy = .never }) }
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<10 {
                        let run = runs[index % 2]
                        group.addTask { try await HTTPCycle.get(url("/ratelimited?key=tour-script&limit=4&window=1"), session: run).statusCode }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                for run in runs { try await run.shutdown() }
                let refused = sandbox.router.rateLimitCounts(forKey: "tour-script").refused
                return Outcome("\(statuses.filter { $0 == 200 }.count) answered, \(refused) refused", expected: "10 answered, 0 refused")
            },
            TourStep(
                title: "A hedged GET: when the first attempt is slow, a second goes out after 50 ms, the first answer wins and the slow one is cancelled",
                code: """
                    let hedging = Hedging(.init(delay: .fixed(.milliseconds(50))))   // or .percentile(0.95, minimum: …)
                    let session = HTTPSession(configuration: .init { $0.networkMiddleware = [hedging] })
                    try await session.send(HTTPRequest(url: URL(string: url("/counter?key=tour-hedge&fail=1&delay=120"))!))   // attempt 1 takes 120 s
                    // per call: options.resilience.hedging = .off, .bypassesCircuitBreaker, .maximumRateLimitWait
                    """
            ) {
                let session = HTTPSession(configuration: .init {
                    $0.networkMiddleware = [Hedging(.init(delay: .fixed(.milliseconds(50))))]
                    $0.retryPolicy = .never
                })
                guard let target = URL(string: url("/counter?key=tour-hedge&fail=1&delay=120")) else { return Outcome("bad URL", expected: "") }
                let started = ContinuousClock.now
                let response = try await session.send(HTTPRequest(url: target))
                let fast = ContinuousClock.now - started < .seconds(100)
                try await session.shutdown()
                return Outcome("\"\(response.text ?? "")\", the slow attempt cancelled: \(fast)", expected: "\"attempt 2 succeeds\", the slow attempt cancelled: true")
            },
            TourStep(
                title: "A POST with an Idempotency-Key is retried as a GET would be: the server acts on a key once",
                code: """
                    let session = HTTPSession(configuration: .init { $0.addsIdempotencyKeys = true })   // a fresh key per POST and PATCH
                    var order = HTTPRequest(url: URL(string: url("/counter?key=tour-order&fail=2"))!, method: .post, object: "1 book")
                    try await session.send(order)   // 503, 503, then 200: the same key on all three
                    """
            ) {
                let session = HTTPSession(configuration: .init {
                    $0.addsIdempotencyKeys = true
                    $0.retryPolicy.baseDelay = .milliseconds(10)
                })
                guard let target = URL(string: url("/counter?key=tour-order&fail=2")) else { return Outcome("bad URL", expected: "") }
                let response = try await session.send(HTTPRequest(url: target, method: .post, object: "1 book"))
                try await session.shutdown()
                return Outcome("\"\(response.text ?? "")\"", expected: "\"attempt 3 succeeds\"")
            },
            TourStep(
                title: "A session is a Service: at a graceful shutdown it refuses new calls and lets those in flight finish",
                code: """
                    let group = ServiceGroup(services: [HTTPSessionService(session, gracePeriod: .seconds(20))], logger: logger)
                    let slow = Task { try await HTTPCycle.get(url("/counter?key=tour-drain&fail=0&hold=0.5"), session: session) }
                    await group.triggerGracefulShutdown()                       // SIGTERM does the same
                    try await HTTPCycle.get(url("/hello/"), session: session)   // sessionShutDown
                    try await slow.value                                        // 200: it finished
                    """
            ) {
                let session = HTTPSession()
                let group = ServiceGroup(services: [HTTPSessionService(session, gracePeriod: .seconds(20))], logger: Logger(label: "tour"))
                let running = Task { try await group.run() }
                let slow = Task { try await HTTPCycle.get(url("/counter?key=tour-drain&fail=0&hold=0.5"), session: session).statusCode }
                try await eventually { sandbox.router.requestCount(forKey: "tour-drain") == 1 }
                await group.triggerGracefulShutdown()
                try await eventually { session.isShuttingDown }
                let refused: String
                do {
                    _ = try await HTTPCycle.get(url("/hello/"), session: session)
                    refused = "let through"
                } catch let error as HTTPError {
                    refused = "\(error.code)"
                }
                let finished = try await slow.value
                try await running.value
                return Outcome("new call: \(refused), in flight: \(finished)", expected: "new call: sessionShutDown, in flight: 200")
            },
            TourStep(
                title: "A session configured from a file and the environment (swift-configuration), following the file as it changes",
                code: """
                    let file = try await ReloadingFileProvider<JSONSnapshot>(filePath: "http.json")   // {"timeout": {"resource": 30}, "retry": {"maximumCount": 1}}
                    let config = ConfigReader(providers: [EnvironmentVariablesProvider(), file])      // TIMEOUT_RESOURCE=… goes over the file
                    let session = HTTPSession(configuration: try .init(config: config))
                    async let following: Void = session.follow(config)   // the file now says 5: the next calls have 5 s
                    """
            ) {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-tour-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                let path = directory.appendingPathComponent("http.json")
                try Data(#"{"timeout": {"resource": 30}, "retry": {"maximumCount": 1}}"#.utf8).write(to: path)
                let file = try await ReloadingFileProvider<JSONSnapshot>(filePath: .init(path.path), pollInterval: .milliseconds(20))
                let polling = Task { try await file.run() }
                let config = ConfigReader(provider: file)
                let session = HTTPSession(configuration: try .init(config: config))
                let before = session.configuration.timeoutForResource
                let following = Task { try await session.follow(config) }
                try Data(#"{"timeout": {"resource": 5}, "retry": {"maximumCount": 1}}"#.utf8).write(to: path)
                try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: path.path)
                try await eventually { session.configuration.timeoutForResource == .seconds(5) }
                let after = session.configuration.timeoutForResource
                following.cancel()
                polling.cancel()
                try await session.shutdown()
                return Outcome("timeout \(before.map { "\($0)" } ?? "none"), then \(after.map { "\($0)" } ?? "none")", expected: "timeout 30.0 seconds, then 5.0 seconds")
            },
        ]
    }

    /// Returns once `condition` holds, looking every few milliseconds for up to ten seconds: a
    /// state another task reaches, in a step whose outcome says whether it came.
    private static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<2000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
    }
}
