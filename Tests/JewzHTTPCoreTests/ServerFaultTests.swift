import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// Faults a server can play on the wire (#27, "hold these"): each ends in a typed error (or, for
/// a body longer than announced, the announced body) in bounded time, and the session then
/// completes a normal request.
@Suite struct ServerFaultTests {
    struct Fault: Sendable, CustomTestStringConvertible {
        let name: String
        let steps: [ScriptedServer.Step]
        /// The codes the failure may have; empty when the request succeeds.
        let expected: [HTTPError.Code]
        /// The request's deadline: short where only the deadline ends the fault, else long
        /// enough that a loaded machine (a sanitizer's build, the whole suite beside it) ends
        /// the fault before it.
        var timeout: Duration = .seconds(60)
        var testDescription: String { name }
    }

    static let faults: [Fault] = [
        Fault(name: "reset mid-body", steps: [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: 100"]) + "0123456789"), .reset],
              expected: [.connectionLost]),
        Fault(name: "closed before the announced length", steps: [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: 100"]) + "0123456789"), .close],
              expected: [.connectionLost]),
        Fault(name: "longer than announced", steps: [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: 5"]) + "hello, and more")],
              expected: []),
        Fault(name: "invalid chunk size", steps: [.send(responseHead("HTTP/1.1 200 OK", ["Transfer-Encoding: chunked"]) + "zz\r\nabc\r\n0\r\n\r\n")],
              expected: [.invalidResponse]),
        Fault(name: "endless headers", steps: [.send("HTTP/1.1 200 OK\r\n"), .sendForever(Array("X-Filler: \(String(repeating: "a", count: 1000))\r\n".utf8))],
              // The header limit, or the run's 2 s when a loaded machine reads slower.
              expected: [.invalidResponse, .timedOut], timeout: .seconds(2)),
        Fault(name: "a flood of 1xx", steps: [.sendForever(Array("HTTP/1.1 102 Processing\r\n\r\n".utf8))],
              expected: [.timedOut], timeout: .seconds(2)),
        Fault(name: "a slow drip", steps: [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: 1000"]))]
                + Array(repeating: [ScriptedServer.Step.send("x"), .pause(.milliseconds(200))], count: 100).flatMap { $0 },
              expected: [.timedOut], timeout: .seconds(2)),
        Fault(name: "not HTTP", steps: [.send("HELLO THERE\r\n\r\n"), .close], expected: [.invalidResponse, .connectionLost]),
        Fault(name: "no answer, closed", steps: [.close], expected: [.connectionLost]),
    ]

    @Test(arguments: faults) func aFaultEndsTypedAndTheSessionGoesOn(_ fault: Fault) async throws {
        try await withScriptedServer({ _ in fault.steps }) { server, session in
            try session.update { $0.retryPolicy = .never }
            let cycle = try HTTPCycle(server.url("/fault"), method: .get, session: session)
            cycle.options.timeoutForResource = fault.timeout
            let error = try await withTimeLimit(.seconds(150)) { () async -> HTTPError? in
                do {
                    try await cycle.start()
                    return nil
                } catch {
                    return error as? HTTPError
                }
            }
            if fault.expected.isEmpty {
                #expect(error == nil, "\(String(describing: error))")
                #expect(cycle.response?.text == "hello")
            } else {
                #expect(error.map { fault.expected.contains($0.code) } == true, "\(fault.name): \(String(describing: error))")
            }
            try await expectSessionStillWorks(session)
        }
    }
}
