import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz bench --rate` against a rate-limited Sandbox endpoint, through the built binary: a
/// claim about the server's count of arrivals, so it runs alone with the heavy tests
/// (`JEWZ_HEAVY_TESTS=1 swift test --filter Heavy`), where nothing else starves the child or the
/// Sandbox. The same property is held in process by `RateLimiterTests` in the plain suite.
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

    @Test func runsOfJewzAtTheSameTimeShareTheirRate() async throws {
        let sandbox = try await Sandbox.start()
        let state = try makeScratchDirectory(prefix: "jewz-rate")
        defer { try? FileManager.default.removeItem(at: state) }
        let url = sandbox.url("/ratelimited?key=script&limit=5&window=1")
        // Twelve runs at once, as a script's `&` would start them: five go, the others wait
        // for turns in the windows after.
        let started = ContinuousClock.now
        let runs = try await withThrowingTaskGroup(of: JewzRun.self) { group in
            for _ in 0..<12 {
                group.addTask { try await runJewz([url, "--rate", "5/s"], environment: ["XDG_STATE_HOME": state.path]) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let elapsed = ContinuousClock.now - started
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.error))")
        #expect(sandbox.router.rateLimitCounts(forKey: "script") == (12, 0))
        #expect(elapsed >= .seconds(2), "the eleventh and twelfth go in the third window")
        let wrong = try await runJewz([url, "--rate", "fast"], environment: ["XDG_STATE_HOME": state.path])
        #expect(wrong.status == 1 && wrong.error.contains("--rate takes N, N/s or N/SECONDSs"), "\(wrong.error)")
        try await sandbox.shutdown()
    }
}
