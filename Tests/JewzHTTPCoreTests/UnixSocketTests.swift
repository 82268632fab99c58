import Foundation
import JewzHTTPCore
import JewzURLSession
import JewzSandbox
import JewzTestSupport
import Testing

/// Servers on Unix domain sockets: a session's socket, AsyncHTTPClient's `http+unix` URLs, and
/// redirects that may not lead there.
@Suite struct UnixSocketTests {
    /// Runs `body` with a Sandbox on a socket in a scratch directory.
    private func withSocketSandbox(_ body: (Sandbox) async throws -> Void) async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-socket")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sandbox = try await Sandbox.start(unixSocketPath: directory.appendingPathComponent("sandbox.sock").path)
        do {
            try await body(sandbox)
        } catch {
            try? await sandbox.shutdown()
            throw error
        }
        try await sandbox.shutdown()
    }

    @Test func aSessionsSocketTakesEveryRequestWithTheURLsHostInHost() async throws {
        try await withSocketSandbox { sandbox in
            var configuration = HTTPSession.Configuration()
            configuration.transport.unixSocketPath = sandbox.socketPath
            try await withSession(configuration) { session in
                let response = try await HTTPCycle.get("http://api.local:8080/inspect?x=1", session: session)
                let inspection = try Inspection(response)
                #expect(inspection.values("Host") == ["api.local:8080"])
                #expect(inspection.uri == "/inspect?x=1")
                #expect(response.url?.absoluteString == "http://api.local:8080/inspect?x=1")
                // A redirect stays on the socket.
                let redirected = try await HTTPCycle.get("http://api.local/redirect/2", session: session)
                #expect(redirected.text == "Hello World")
            }
        }
    }

    @Test func anHTTPUnixURLNamesTheSocketForOneRequest() async throws {
        try await withSocketSandbox { sandbox in
            try await withSession(HTTPSession.Configuration()) { session in
                let response = try await HTTPCycle.get(sandbox.socketURL("/inspect"), session: session)
                #expect(try Inspection(response).values("Host") == ["localhost"])
                // A relative redirect stays on the socket the request is on.
                let redirected = try await HTTPCycle.get(sandbox.socketURL("/redirect/1"), session: session)
                #expect(redirected.text == "Hello World")
            }
        }
    }

    @Test func aRedirectFromTheNetworkNeverLeadsToASocket() async throws {
        try await withSocketSandbox { local in
            try await withSandbox { remote, session in
                let target = local.socketURL("/counter?key=reached")
                let encoded = try #require(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                let error = await httpError { try await HTTPCycle.get(remote.url("/redirect-to?url=\(encoded)"), session: session) }
                #expect(error?.code == .invalidResponse, "\(String(describing: error))")
                #expect(error?.description.contains("Unix domain socket") == true)
                #expect(local.router.requestCount(forKey: "reached") == 0)
            }
        }
    }

    @Test func urlSessionRefusesSocketsWhenMadeAndWhenAsked() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.transport.unixSocketPath = "/tmp/nothing.sock"
        let made = #expect(throws: HTTPError.self) { try URLSessionTransport(configuration: configuration) }
        #expect(made?.description.contains("unixSocketPath") == true)
        try await withSocketSandbox { sandbox in
            try await withSandbox(transport: .urlSession) { _, session in
                let error = await httpError { try await HTTPCycle.get(sandbox.socketURL("/hello/"), session: session) }
                #expect(error?.code == .invalidConfiguration, "\(String(describing: error))")
            }
        }
    }

    private func withSession(_ configuration: HTTPSession.Configuration, _ body: (HTTPSession) async throws -> Void) async throws {
        var configuration = configuration
        configuration.logger = quietLogger
        let session = HTTPSession(configuration: configuration)
        do {
            try await body(session)
        } catch {
            try? await session.shutdown()
            throw error
        }
        try await session.shutdown()
    }
}
