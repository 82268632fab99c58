import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// #27: ten thousand requests at concurrency 256 through `jewz bench`, counted by the server.
/// Heavy: runs alone (`JEWZ_HEAVY_TESTS=1 swift test --filter Heavy`, as `.ci/run` does).
@Suite(.enabled(if: heavyTestsEnabled)) struct HeavyLoadTests {
    @Test func tenThousandRequestsAtConcurrency256AreNeitherLostNorDuplicated() async throws {
        let sandbox = try await Sandbox.start()
        let result = try await runJewz(
            ["bench", sandbox.url("/counter?key=load&fail=0"), "-n", "10000", "-c", "256", "--json"],
            environment: ["JEWZ_REPORT_PEAK_MEMORY": "1"], timeLimit: .seconds(300))
        #expect(result.status == 0, "\(result.error)")
        let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect(report?["errors"] as? Int == 0)
        #expect(sandbox.router.requestCount(forKey: "load") == 10_000)
        // Reported for the note; the bound is generous, far above what 256 exchanges need.
        let peak = try #require(result.peakMemory)
        print("load test: 10000 requests at c=256, \(report?["requests_per_second"] ?? "?") req/s, peak memory \(peak >> 20) MiB")
        #expect(peak < (512 << 20) * SanitizerBuild.memoryFactor)
        try await sandbox.shutdown()
    }
}
