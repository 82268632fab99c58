import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// The resilience settings `jewz bench` takes, through the built binary.
@Suite struct ResilienceCommandTests {
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
    static func count(_ name: String, in output: String) throws -> Int {
        let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let number = try #require(report?[name] as? NSNumber, "no \(name) in \(output)")
        return number.intValue
    }
}
