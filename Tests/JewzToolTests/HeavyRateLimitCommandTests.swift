import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz bench --rate` against a rate-limited Sandbox endpoint, through the built binary: a
/// claim about the server's count of arrivals, which a child process starved by the rest of the
/// suite can blur (three 429s in 12 were seen once under the full suite on 2 cores), so it runs
/// alone with the heavy tests (`JEWZ_HEAVY_TESTS=1 swift test --filter Heavy`). The same
/// property is held in process by `RateLimiterTests` in the plain suite.
@Suite(.enabled(if: heavyTestsEnabled)) struct HeavyRateLimitCommandTests {
    @Test func benchAtARateTheServerAllowsGetsNo429() async throws {
        let sandbox = try await Sandbox.start()
        let url = sandbox.url("/ratelimited?key=bench&limit=5&window=1")
        let limited = try await runJewz(["bench", url, "-n", "12", "-c", "12", "--rate", "5/s", "--json"])
        #expect(limited.status == 0, "\(limited.error)")
        #expect(limited.output.contains(#""errors":0"#), "\(limited.output)")
        #expect(sandbox.router.rateLimitCounts(forKey: "bench") == (12, 0))
        #expect(try ResilienceCommandTests.count("rate_limit_waits", in: limited.output) >= 7, "12 calls at 5 a second: all but the first five wait")

        // Without it, 20 at once against 2 a second: however slow the machine, some are refused.
        let unlimited = try await runJewz(["bench", sandbox.url("/ratelimited?key=flood&limit=2&window=1"), "-n", "20", "-c", "20", "--json"])
        #expect(sandbox.router.rateLimitCounts(forKey: "flood").refused > 0, "\(unlimited.output)")

        let wrong = try await runJewz(["bench", url, "--rate", "fast"])
        #expect(wrong.status == 1 && wrong.error.contains("--rate takes N, N/s or N/SECONDSs"), "\(wrong.error)")
        try await sandbox.shutdown()
    }
}
