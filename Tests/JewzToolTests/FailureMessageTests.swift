import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// What a person reads when a request fails, the whole line each time, so that a change of
/// wording is a decision: where (host and port), what happened in words, and what to do, in
/// jewz's options. No retries, so that each failure is the first.
@Suite struct FailureMessageTests {
    private func failure(_ arguments: [String]) async throws -> String {
        let run = try await runJewz(["--retries", "0"] + arguments)
        #expect(run.status != 0)
        return run.messages.joined(separator: "\n")
    }

    @Test func aRefusedConnection() async throws {
        try await withRefusingPort { port in
            let message = try await failure(["http://127.0.0.1:\(port)/x"])
            #expect(message == "jewz: Could not connect to 127.0.0.1 port \(port): the connection was refused. Check the host, the port and that the server is running.")
        }
    }

    @Test func aHostWithoutAnAddress() async throws {
        let message = try await failure(["http://no-such-host.invalid/x"])
        #expect(message == "jewz: Could not resolve host no-such-host.invalid. Check the host name, and that this machine can resolve names.")
    }

    @Test func aTimeoutWhileConnecting() async throws {
        try await withUnacceptingPort { port in
            let message = try await failure(["--timeout", "0.5", "http://127.0.0.1:\(port)/x"])
            #expect(message == "jewz: Timed out connecting to 127.0.0.1 port \(port). --timeout allowed 0.5 seconds; raise it if the server is slow.")
        }
    }

    @Test func aTimeoutWaitingForTheResponse() async throws {
        try await withSandbox { sandbox, _ in
            let port = try #require(URL(string: sandbox.url("/"))?.port)
            // Long enough that a busy machine has connected and sent well before it runs out.
            let message = try await failure(["--timeout", "10", sandbox.url("/echo/?delay=60")])
            #expect(message == "jewz: Timed out waiting for a response from 127.0.0.1 port \(port). --timeout allowed 10 seconds; raise it if the server is slow.")
        }
    }

    @Test func aTimeoutReadingTheBody() async throws {
        try await withSandbox { sandbox, _ in
            let port = try #require(URL(string: sandbox.url("/"))?.port)
            // One line at once, then a body that never ends. The timeout covers the head's
            // arrival too: long enough that a busy machine has read the head before it runs out.
            let line = #"{"index":0,"text":"line 0"}"#.utf8.count + 1
            let message = try await failure(["--timeout", "10", sandbox.url("/ndjson?count=1&end=hold")])
            #expect(message == "jewz: Timed out reading the body from 127.0.0.1 port \(port) after \(line) bytes. --timeout allowed 10 seconds; raise it if the server is slow.")
        }
    }

    @Test func aBodyCutOffMidway() async throws {
        try await withSandbox { sandbox, _ in
            let port = try #require(URL(string: sandbox.url("/"))?.port)
            let message = try await failure([sandbox.url("/drop/1000")])
            #expect(message == "jewz: The server at 127.0.0.1 port \(port) closed the connection after 500 bytes of the body. The server did process the request.")
        }
    }

    @Test func aConnectionResetMidBody() async throws {
        let server = try await ScriptedServer.start { _ in
            [.send("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "x", count: 300)), .pause(.milliseconds(50)), .reset]
        }
        let message = try await failure([server.url("/x")])
        try await server.shutdown()
        #expect(message == "jewz: The connection to 127.0.0.1 port \(server.port) was reset by the server after 300 bytes of the body. The server did process the request.")
    }

    @Test func aCertificateNotTrustedHere() async throws {
        let sandbox = try await Sandbox.start(tls: SandboxTLS(certificates: try SandboxCertificates.generate()))
        let port = try #require(URL(string: sandbox.url("/"))?.port)
        let message = try await failure([sandbox.url("/hello/")])
        try await sandbox.shutdown()
        #expect(message == "jewz: The TLS certificate of 127.0.0.1 port \(port) was refused: it is self-signed, signed by an authority not trusted here, or expired. Trust its authority with --verify CA.pem, or, for a test server only, --verify no.")
    }

    /// RFC 9110 takes any token as a method: SSDP's `M-SEARCH` goes as one when a URL follows it.
    @Test func anyTokenIsAMethodBeforeAURL() async throws {
        try await withSandbox { sandbox, _ in
            let run = try await runJewz(["M-SEARCH", sandbox.url("/inspect")])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output.contains(#""method":"M-SEARCH""#), "\(run.output)")
            let port = try #require(URL(string: sandbox.url("/"))?.port)
            let shorthand = try await runJewz(["PROPFIND", ":\(port)/inspect"])
            #expect(shorthand.output.contains(#""method":"PROPFIND""#), "\(shorthand.output)")
            let explicit = try await runJewz(["-X", "QUERY", sandbox.url("/inspect"), "q==1"])
            #expect(explicit.output.contains(#""method":"QUERY""#), "\(explicit.output)")
        }
    }
}
