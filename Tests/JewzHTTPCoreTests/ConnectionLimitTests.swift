import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// The transport's `maximumConnectionsPerHost` holds for the whole default transport, which
/// keeps a client per event loop and shares the limit out among them.
@Suite struct ConnectionLimitTests {
    /// Holds a connection: a body the server stops sending, read as a stream and never finished.
    private func holdAConnection(of session: HTTPSession, on sandbox: Sandbox) async throws -> HTTPResponseBody {
        try await HTTPCycle(sandbox.url(TimeoutTests.stalledDownload), method: .get, options: .init(retryPolicy: .never), session: session)
            .startStreaming().body
    }

    /// A GET of /hello that gives up after `timeout`, waiting for a connection included.
    private func hello(on sandbox: Sandbox, session: HTTPSession, timeout: Duration) throws -> HTTPCycle {
        let cycle = try HTTPCycle(sandbox.url("/hello"), method: .get, options: .init(retryPolicy: .never), session: session)
        cycle.options.timeoutForResource = timeout
        return cycle
    }

    @Test func withOneConnectionASecondRequestWaitsForIt() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.transport.connectionPool.maximumConnectionsPerHost = 1
        try await withSandbox(configuration: configuration) { sandbox, session in
            let held = try await holdAConnection(of: session, on: sandbox)
            // Another event loop's client must not open a second connection.
            let waiting = try hello(on: sandbox, session: session, timeout: .milliseconds(300))
            guard let error = await httpError({ try await waiting.start() }), error.code == .timedOut else {
                Issue.record("the second request found a connection of its own")
                return
            }
            withExtendedLifetime(held) {}
        }
    }

    @Test func withTwoConnectionsASecondRequestGoesAhead() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.transport.connectionPool.maximumConnectionsPerHost = 2
        try await withSandbox(configuration: configuration) { sandbox, session in
            let held = try await holdAConnection(of: session, on: sandbox)
            let response = try await hello(on: sandbox, session: session, timeout: .seconds(20)).start()
            #expect(response.statusCode == 200)
            withExtendedLifetime(held) {}
        }
    }
}
