import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// A kept-alive connection the server closed without saying so: the request on it fails before
/// any byte of an answer, which every pooled client meets. An idempotent request is sent again
/// at once on another connection, outside the retry policy, a bounded number of times; a POST
/// is not.
@Suite struct StaleConnectionTests {
    /// Answers the first request and keeps the connection, then closes it at the next request
    /// without answering (the race of a server's idle timeout); answers every later one.
    static let script: ScriptedServer.Script = { request in
        switch request.index {
        case 0: [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: 5"]) + "first")]
        case 1: [.close]
        default: [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: 6", "Connection: close"]) + "second"), .close]
        }
    }

    static let noRetries = HTTPSession.Configuration { $0.retryPolicy = .never }

    @Test(arguments: TransportKind.allCases)
    func anIdempotentRequestIsSentAgainOnAnotherConnection(transport: TransportKind) async throws {
        try await withScriptedServer(configuration: Self.noRetries, transport: transport, Self.script) { server, session in
            let first = try await HTTPCycle.get(server.url("/a"), session: session)
            #expect(first.text == "first")
            let cycle = try HTTPCycle(server.url("/b"), method: .get, session: session)
            let response = try await cycle.start()
            #expect(response.text == "second")
            #expect(cycle.retryCount == 0, "the retry policy was not asked")
            #expect(server.requestCount == 3)
        }
    }

    @Test func aPostIsNotSentAgain() async throws {
        try await withScriptedServer(configuration: Self.noRetries, Self.script) { server, session in
            let first = try await HTTPCycle.get(server.url("/a"), session: session)
            #expect(first.text == "first")
            let error = await httpError { try await HTTPCycle.post(server.url("/b"), requestObject: "order", session: session) }
            #expect(error?.code == .connectionLost)
            #expect(server.requestCount == 2)
        }
    }

    @Test func aServerThatKeepsClosingGetsThreeMoreTriesNotMore() async throws {
        try await withScriptedServer(configuration: Self.noRetries, { request in
            request.index == 0 ? [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: 2"]) + "ok")] : [.close]
        }) { server, session in
            try await HTTPCycle.get(server.url("/a"), session: session)
            let error = await httpError { try await HTTPCycle.get(server.url("/b"), session: session) }
            #expect(error?.code == .connectionLost)
            #expect(server.requestCount == 5, "the first request, then the first try and three more")
        }
    }
}
