import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// The request path through `jewz` (#37): `-v` names the stages a request went through, and
/// `--log` is a network middleware logging every hop (LargeTransferTests runs a large body
/// through it).
@Suite struct ChainOptionTests {
    @Test func verboseNamesTheStagesHopByHop() async throws {
        let sandbox = try await Sandbox.start()
        let plain = try await runJewz(["-v", sandbox.url("/hello/")])
        #expect(plain.messages.contains("jewz: through retry → print → transport"), "\(plain.error)")
        #expect(plain.messages.contains { $0.hasPrefix("jewz: attempt 1: sent at ") && $0.contains(", 200 at ") }, "\(plain.error)")
        let retried = try await runJewz(["-v", "--retries", "1", sandbox.url("/counter?key=verbose&fail=1")])
        let attempts = retried.messages.filter { $0.hasPrefix("jewz: attempt ") }
        #expect(attempts.count == 2, "\(retried.error)")
        #expect(attempts.first?.contains(", 503 at ") == true && attempts.first?.contains(", retried after ") == true, "\(attempts)")
        #expect(attempts.last?.contains(", 200 at ") == true, "\(attempts)")
        let hops = try await runJewz(["-v", "--follow", sandbox.url("/redirect/1")])
        #expect(
            hops.messages.contains("jewz: through retry → redirects → print → transport → print → transport → print → transport"),
            "\(hops.error)")
        try await sandbox.shutdown()
    }

    @Test func logWritesEachHopAsItGoesOnTheWire() async throws {
        let sandbox = try await Sandbox.start()
        let run = try await runJewz(["--log", "--follow", "--print", "b", sandbox.url("/redirect/1"), "Authorization:Bearer hunter2"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "Hello World")
        let lines = run.messages.map(String.init)
        #expect(lines.filter { $0.hasPrefix("jewz: → GET ") }.count == 3, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("jewz: ← 302 GET ") && $0.contains("/redirect/1 in ") && $0.hasSuffix(" ms") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("jewz: ← 200 GET ") && $0.contains("/hello/") }, "\(lines)")
        #expect(!run.error.contains("hunter2"))
        try await sandbox.shutdown()
    }
}
