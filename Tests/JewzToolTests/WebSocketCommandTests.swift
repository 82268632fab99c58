import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz ws` as a user runs it: lines in, messages out, the closing handshake, refusals.
@Suite struct WebSocketCommandTests {
    @Test func linesGoOutAndTheEchoesArePrintedBeforeTheClose() async throws {
        let sandbox = try await Sandbox.start()
        let url = sandbox.url("/ws/echo").replacingOccurrences(of: "http://", with: "ws://")
        let text = try await runJewz(["ws", "--linger", "0", url], input: "hello\nwörld\n")
        #expect(text.status == 0)
        #expect(text.output == "hello\nwörld\n")
        let json = try await runJewz(["ws", "--linger", "0", "--json", "--binary", url], input: "a\n")
        #expect(json.output == "{\"binary\":\"YQ==\"}\n")
        try await sandbox.shutdown()
    }

    @Test func headerFieldsAndCredentialsReachTheHandshake() async throws {
        let sandbox = try await Sandbox.start()
        let headers = try await runJewz(["ws", "--linger", "0", "--json", sandbox.url("/ws/headers"), "X-Tour:yes", "--subprotocol", "v2"], input: "")
        let line = try #require(headers.output.split(separator: "\n").first)
        let message = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        let fields = try #require(try JSONSerialization.jsonObject(with: Data((message["text"] ?? "").utf8)) as? [String: String])
        #expect(fields["x-tour"] == "yes")
        #expect(fields["sec-websocket-protocol"] == "v2")
        let refused = try await runJewz(["ws", "--linger", "0", sandbox.url("/ws/basic/ada/pw")], input: "x\n")
        #expect(refused.status == 4)
        #expect(refused.messages.first?.contains("401") == true)
        let allowed = try await runJewz(["ws", "--linger", "0", "-a", "ada:pw", sandbox.url("/ws/basic/ada/pw")], input: "x\n")
        #expect(allowed.status == 0)
        #expect(allowed.output == "x\n")
        try await sandbox.shutdown()
    }

    @Test func aServersCloseEndsTheRunAndAnUnreachableServerIsANetworkFailure() async throws {
        let sandbox = try await Sandbox.start()
        let closed = try await runJewz(["ws", "--linger", "0", sandbox.url("/ws/count/3?size=4")], input: "")
        #expect(closed.status == 0)
        #expect(closed.output.utf8.count == 3 * 5)
        try await sandbox.shutdown()
        let unreachable = try await runJewz(["ws", "--linger", "0", "ws://127.0.0.1:\(sandbox.port)/ws/echo"], input: "x\n")
        #expect(unreachable.status == 2)
    }
}
