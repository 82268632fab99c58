import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// The resilience settings `jewz bench` takes, through the built binary.
@Suite struct ResilienceCommandTests {
    @Test func benchAtARateTheServerAllowsGetsNo429() async throws {
        let sandbox = try await Sandbox.start()
        let url = sandbox.url("/ratelimited?key=bench&limit=5&window=1")
        let limited = try await runJewz(["bench", url, "-n", "12", "-c", "12", "--rate", "5/s", "--json"])
        #expect(limited.status == 0, "\(limited.error)")
        #expect(limited.output.contains(#""errors":0"#), "\(limited.output)")
        #expect(sandbox.router.rateLimitCounts(forKey: "bench") == (12, 0))
        #expect(try Self.count("rate_limit_waits", in: limited.output) >= 7, "12 calls at 5 a second: all but the first five wait")

        // Without it, 20 at once against 2 a second: however slow the machine, some are refused.
        let unlimited = try await runJewz(["bench", sandbox.url("/ratelimited?key=flood&limit=2&window=1"), "-n", "20", "-c", "20", "--json"])
        #expect(sandbox.router.rateLimitCounts(forKey: "flood").refused > 0, "\(unlimited.output)")

        let wrong = try await runJewz(["bench", url, "--rate", "fast"])
        #expect(wrong.status == 1 && wrong.error.contains("--rate takes N, N/s or N/SECONDSs"), "\(wrong.error)")
        try await sandbox.shutdown()
    }

    @Test func benchWithHedgingOvertakesASlowFirstAttempt() async throws {
        let sandbox = try await Sandbox.start()
        // The first attempt of the key to reach the server answers after 120 s, the next at once;
        // on a loaded machine the hedge may reach it first, and then the first request wins.
        let url = sandbox.url("/counter?key=hedged&fail=1&status=503&delay=120")
        let hedged = try await runJewz(["bench", url, "-n", "1", "-c", "1", "--hedge", "50", "--json"], timeLimit: .seconds(200))
        #expect(hedged.status == 0, "\(hedged.error)")
        #expect(try Self.count("errors", in: hedged.output) == 0, "\(hedged.output)")
        #expect(try Self.count("hedges_sent", in: hedged.output) == 1 && Self.count("hedges_won", in: hedged.output) <= 1, "\(hedged.output)")
        #expect(try Self.count("p50_ms", in: hedged.output) < 100_000, "the slow attempt did not decide: \(hedged.output)")
        #expect(sandbox.router.requestCount(forKey: "hedged") == 2)

        let wrong = try await runJewz(["bench", url, "--hedge", "soon"])
        #expect(wrong.status == 1 && wrong.error.contains("--hedge takes milliseconds"), "\(wrong.error)")
        try await sandbox.shutdown()
    }

    /// The number `jewz bench --json` reported as `name`.
    private static func count(_ name: String, in output: String) throws -> Int {
        let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let number = try #require(report?[name] as? NSNumber, "no \(name) in \(output)")
        return number.intValue
    }
}
