import ArgumentParser
import CoreMetrics
import Foundation
import JewzLocking
import Jewzruxin

/// `jewz bench URL -n N -c C`: N requests at concurrency C through the whole request path,
/// with the session defaults a user gets and the connection options of a request (TLS, the
/// HTTP version, a proxy), reporting throughput, latency percentiles and errors.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Time N requests at concurrency C through the whole request path.",
        discussion: """
            jewz bench :8000/hello/ -n 10000 -c 64      requests/s, latency p50/p90/p99
            jewz bench :8000/hello/ -n 1000 -c 8 --json  the same as JSON
            jewz bench https://localhost:8443/ -n 20000 -c 64 --verify ca.pem
            jewz bench :8000/post -X POST --data '{"n":1}' -n 2000 -c 64
            Measure a release build: swift run -c release jewz bench URL -n N -c C.
            """)

    @Argument(help: "The URL to send the requests to.")
    var url: String

    @Option(name: .customShort("n"), help: "How many requests to send.")
    var requests = 1000

    @Option(name: .short, help: "How many requests are in flight at once.")
    var concurrency = 1

    @Option(name: [.customShort("X"), .customLong("method")], help: "The request method (GET unless given).")
    var method = "GET"

    @Option(help: "The body every request carries, as it is.")
    var data: String?

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var configFile: ConfigFileOptions

    @Option(help: "Send at most N requests a second, or N per window: 10, 10/s, 100/60s; the limits the server announces (RateLimit-Policy) are followed too.")
    var rate: String?

    @Option(help: "Hedge each GET, HEAD, PUT or DELETE: a second request goes out when the first has not answered after MS milliseconds, or after the server's latency at a percentile (p95, p99); the first answer wins.")
    var hedge: String?

    @Flag(help: "Give each POST and PATCH a fresh Idempotency-Key, so that one a connection lost is sent again (the server acts on a key once).")
    var idempotencyKeys = false

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func validate() throws {
        guard requests > 0 else { throw ValidationError("-n must be at least 1.") }
        guard (1...requests).contains(concurrency) else { throw ValidationError("-c must be between 1 and -n.") }
        guard method.isHTTPToken else { throw ValidationError("-X takes a method, a token such as POST or PURGE.") }
    }

    func run() async throws {
        let target = RequestCommand.normalizedURL(url)
        guard let targetURL = URL(string: target), targetURL.isSendableHTTP else {
            throw ValidationError("'\(url)' is not an http or https URL.")
        }
        let request = HTTPRequest(url: targetURL, method: HTTPMethod(rawValue: method.uppercased()), data: data.map { Data($0.utf8) })
        let session = try connection.makeSession(base: await configFile.baseConfiguration())
        if idempotencyKeys { try session.update { $0.addsIdempotencyKeys = true } }
        if let rate {
            let limit = try RateLimit(option: rate)
            // A benchmark waits its turn however long the limit asks: each request is to go.
            try session.update { $0.networkMiddleware.append(RateLimiter(.init(limits: [limit], maximumWait: .seconds(86_400)))) }
        }
        if let hedge {
            let delay = try Self.hedgingDelay(hedge)
            // First of the network middleware: each hedge waits its turn under --rate.
            try session.update { $0.networkMiddleware.insert(Hedging(.init(delay: delay)), at: 0) }
        }
        let metrics = BenchMetrics()
        if rate != nil || hedge != nil { MetricsSystem.bootstrap(metrics) }
        let tickets = Tickets(count: requests)
        let clock = ContinuousClock()
        let started = clock.now
        let (latencies, errors, firstError) = await withTaskGroup(of: ([Duration], Int, String?).self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var latencies: [Duration] = []
                    var errors = 0
                    var firstError: String?
                    while tickets.take() {
                        let begin = clock.now
                        do {
                            _ = try await session.send(request)
                            latencies.append(clock.now - begin)
                        } catch {
                            errors += 1
                            if firstError == nil { firstError = "\(error)" }
                        }
                    }
                    return (latencies, errors, firstError)
                }
            }
            var all: [Duration] = []
            var errors = 0
            var firstError: String?
            for await (latencies, failed, failure) in group {
                all += latencies
                errors += failed
                firstError = firstError ?? failure
            }
            return (all.sorted(), errors, firstError)
        }
        let elapsed = (clock.now - started).inSeconds
        try? await session.shutdown()
        let report = BenchReport(
            requests: requests, concurrency: concurrency, requestsPerSecond: Double(requests) / elapsed,
            p50: Self.percentile(latencies, 0.50), p90: Self.percentile(latencies, 0.90), p99: Self.percentile(latencies, 0.99),
            errors: errors, resilience: BenchReport.Resilience(metrics))
        printLine(json ? report.json.formatted() : report.text)
        if let firstError { printError("first error: \(firstError)") }
        if errors == requests { throw JewzExit.network.code }
    }

    /// The delay `--hedge` describes: milliseconds (`50`) or a percentile (`p95`).
    ///
    /// - Throws: `ValidationError` for anything else.
    static func hedgingDelay(_ text: String) throws -> Hedging.Delay {
        if text.hasPrefix("p"), let percentile = Double(text.dropFirst()), percentile > 0, percentile < 100 {
            return .percentile(percentile / 100, minimum: .milliseconds(1))
        }
        guard let milliseconds = Double(text), milliseconds >= 0, milliseconds <= 3_600_000 else {
            throw ValidationError("--hedge takes milliseconds (50) or a percentile of the server's latency (p95).")
        }
        return .fixed(.microseconds(Int64(milliseconds * 1000)))
    }

    /// The latency at quantile `q` of sorted samples, in milliseconds (nearest rank).
    static func percentile(_ sorted: [Duration], _ q: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank].inSeconds * 1000
    }
}

/// Hands out the requests to send, one at a time, to the workers.
final class Tickets: Sendable {
    private let remaining: Mutex<Int>

    init(count: Int) {
        remaining = Mutex(count)
    }

    /// Whether a request is left to send (and takes it).
    func take() -> Bool {
        remaining.withLock { remaining in
            guard remaining > 0 else { return false }
            remaining -= 1
            return true
        }
    }
}

/// What `jewz bench` measured.
struct BenchReport {
    var requests: Int
    var concurrency: Int
    var requestsPerSecond: Double
    var p50: Double
    var p90: Double
    var p99: Double
    var errors: Int
    var resilience: Resilience

    /// What the resilience stages did during the run, from their counters.
    struct Resilience {
        var hedgesSent: Int64
        var hedgesWon: Int64
        var rateLimitWaits: Int64
        var rateLimitRejections: Int64
        var circuitRejections: Int64

        init(_ metrics: BenchMetrics) {
            hedgesSent = metrics.total("jewz.hedging.attempts")
            hedgesWon = metrics.total("jewz.hedging.wins")
            rateLimitWaits = metrics.total("jewz.rate_limiter.waits")
            rateLimitRejections = metrics.total("jewz.rate_limiter.rejections")
            circuitRejections = metrics.total("jewz.circuit_breaker.rejections")
        }

        var fields: [(String, Int64)] {
            [
                ("hedges_sent", hedgesSent), ("hedges_won", hedgesWon), ("rate_limit_waits", rateLimitWaits),
                ("rate_limit_rejections", rateLimitRejections), ("circuit_rejections", circuitRejections),
            ]
        }
    }

    var json: JSONValue {
        func number(_ value: Double) -> JSONValue { JSONNumber((value * 1000).rounded() / 1000).map(JSONValue.number) ?? .null }
        let measured: [(String, JSONValue)] = [
            ("requests", .number(JSONNumber(requests))), ("concurrency", .number(JSONNumber(concurrency))),
            ("requests_per_second", number(requestsPerSecond)), ("p50_ms", number(p50)), ("p90_ms", number(p90)),
            ("p99_ms", number(p99)), ("errors", .number(JSONNumber(errors))),
        ]
        return .object(JSONObject(measured + resilience.fields.map { ($0.0, .number(JSONNumber(Int($0.1)))) }))
    }

    var text: String {
        var text = String(
            format: "%d requests at concurrency %d: %.1f requests/s, latency p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, %d errors",
            requests, concurrency, requestsPerSecond, p50, p90, p99, errors)
        let r = resilience
        if r.hedgesSent > 0 { text += "; \(r.hedgesSent) hedges sent, \(r.hedgesWon) won" }
        if r.rateLimitWaits + r.rateLimitRejections > 0 {
            text += "; rate limit: \(r.rateLimitWaits) waited, \(r.rateLimitRejections) refused"
        }
        if r.circuitRejections > 0 { text += "; \(r.circuitRejections) refused by an open circuit" }
        return text
    }
}
