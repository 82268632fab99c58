import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// The session's idle timeout (`transport.timeouts.idle`) and a request's whole-exchange timeout,
/// against a server that stops sending in the middle of a body.
@Suite struct TimeoutTests {
    /// A 1 MiB download whose server goes silent after 64 KiB, the connection left open.
    static let stalledDownload = "/download/1048576?stall=65536"

    @Test(arguments: TransportKind.allCases) func aStalledBodyEndsAfterTheIdleTimeout(transport: TransportKind) async throws {
        var configuration = HTTPSession.Configuration()
        configuration.transport.timeouts.idle = .milliseconds(300)
        try await withSandbox(configuration: configuration, transport: transport) { sandbox, session in
            await expectTimeout(try HTTPCycle(sandbox.url(Self.stalledDownload), method: .get, options: .init(retryPolicy: .never), session: session))
        }
    }

    @Test func aRequestTimeoutBoundsTheBodyToo() async throws {
        // The idle timeout is the default minute: only the request's own timeout can end it.
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url(Self.stalledDownload), method: .get, options: .init(retryPolicy: .never), session: session)
            cycle.options.timeoutForResource = .milliseconds(500)
            await expectTimeout(cycle)
        }
    }

    @Test func aRequestTimeoutBoundsTheConnectAttempt() async throws {
        // The transport allows five minutes to connect: only the request's own timeout ends it
        // sooner. (Under the whole suite, and more under ThreadSanitizer, the end of a 500 ms
        // timeout was seen to take up to 39 s to reach the caller.)
        let session = HTTPSession(configuration: .init {
            $0.transport.timeouts.connect = .seconds(300)
            $0.logger = quietLogger
        })
        try await withUnacceptingPort { port in
            let request = HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/x")!)
            let started = ContinuousClock.now
            let error = await httpError {
                _ = try await session.send(request, options: .init(timeoutForResource: .milliseconds(500), retryPolicy: .never))
            }
            #expect(error?.code == .timedOut, "\(String(describing: error))")
            #expect(ContinuousClock.now - started < .seconds(120), "not the transport's five minutes")
        }
        try await session.shutdown()
    }

    @Test(arguments: TransportKind.allCases) func aRequestsIdleTimeoutOverridesTheTransports(transport: TransportKind) async throws {
        // The transport's idle timeout is the default minute: only the request's shorter one ends it.
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url(Self.stalledDownload), method: .get, options: .init(retryPolicy: .never), session: session)
            cycle.options.idleTimeout = .milliseconds(300)
            await expectTimeout(cycle)
        }
    }

    @Test func aRequestsLongerIdleTimeoutOutlastsTheTransports() async throws {
        // The server answers after 1.5 s of silence: the transport's 300 ms would end it, the
        // request's own 20 s does not.
        var configuration = HTTPSession.Configuration()
        configuration.transport.timeouts.idle = .milliseconds(300)
        try await withSandbox(configuration: configuration) { sandbox, session in
            let slow = try HTTPCycle(sandbox.url("/echo/?delay=1.5&content=late"), method: .get, options: .init(retryPolicy: .never), session: session)
            slow.options.idleTimeout = .seconds(20)
            try await slow.start()
            #expect(slow.response?.text == "late")
            let impatient = try HTTPCycle(sandbox.url("/echo/?delay=1.5"), method: .get, options: .init(retryPolicy: .never), session: session)
            await expectTimeout(impatient)
        }
    }

    /// Starts `cycle`, expecting it to time out where, without a timeout, it would wait for ever.
    private func expectTimeout(_ cycle: HTTPCycle, sourceLocation: SourceLocation = #_sourceLocation) async {
        let started = ContinuousClock.now
        guard let error = await httpError({ try await cycle.start() }), error.code == .timedOut else {
            Issue.record("expected a timeout", sourceLocation: sourceLocation)
            return
        }
        // The error proves the timeout ended it; the bound only catches a hang, with room for a
        // starved machine.
        #expect(ContinuousClock.now - started < .seconds(120), sourceLocation: sourceLocation)
    }

    @Test func aReaderSlowerThanTheIdleTimeoutIsNotIdle() async throws {
        // The connection pauses because the reader does not read, not because the server is
        // silent: that must not count as idle. The timeout leaves the server, in this process
        // on a loaded machine, room to be slow while the reader reads (one, two, then five
        // seconds were seen to run out while the whole suite ran on two slow cores).
        var configuration = HTTPSession.Configuration()
        configuration.transport.timeouts.idle = .seconds(10)
        let size: Int64 = 8 << 20
        try await withSandbox(configuration: configuration) { sandbox, session in
            let body = try await HTTPCycle(sandbox.url("/download/\(size)"), method: .get, session: session).startStreaming().body
            var iterator = body.makeAsyncIterator()
            var received = Int64(try await iterator.next()?.count ?? 0)
            // Slowness is what is tested: the reader sleeps through several idle timeouts
            // while the buffers fill and the connection waits for it.
            try await Task.sleep(for: .seconds(25))
            while let chunk = try await iterator.next() { received += Int64(chunk.count) }
            #expect(received == size)
        }
    }
}
