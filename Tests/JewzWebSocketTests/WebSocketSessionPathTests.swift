import Foundation
import JewzAuth
import JewzCookies
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import JewzWebSocket
import Testing

/// The opening handshake is a request of the session: its middleware, cookies, credentials,
/// TLS settings and proxies apply as to any other.
@Suite struct WebSocketSessionPathTests {
    /// The handshake's request fields as the Sandbox's `/ws/headers` reports them.
    private func handshakeFields(_ session: HTTPSession, _ url: String) async throws -> [String: String] {
        let message = try await session.withWebSocket(to: try #require(URL(string: url))) { socket in
            var iterator = socket.messages.makeAsyncIterator()
            return try await iterator.next()
        }
        let text = try #require(message)
        guard case .text(let json) = text else {
            Issue.record("expected a text message, got \(text)")
            return [:]
        }
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
    }

    @Test func middlewareCookiesAndRequestFieldsReachTheHandshake() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.cookieJar = try HTTPCookieJar()
        configuration.networkMiddleware = [HTTPHeaderMiddleware(["X-Trace": "abc"])]
        try await withSandbox(configuration: configuration) { sandbox, session in
            _ = try await session.send(HTTPRequest(url: try #require(URL(string: sandbox.url("/echo/?header=Set-Cookie:flavour=oat%3B%20Path=/")))))
            let fields = try await handshakeFields(session, sandbox.url("/ws/headers").replacingOccurrences(of: "http:", with: "ws:"))
            #expect(fields["cookie"] == "flavour=oat")
            #expect(fields["x-trace"] == "abc")
            #expect(fields["upgrade"] == "websocket")
            #expect(fields["sec-websocket-version"] == "13")
            #expect(fields["sec-websocket-extensions"]?.hasPrefix("permessage-deflate") == true)
        }
    }

    @Test func aChallengeIsAnsweredBeforeTheUpgrade() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.authentications = [BasicAuthentication(username: "ada", password: "s3cret")]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/basic/ada/s3cret")))
            let echoed = try await session.withWebSocket(to: url) { socket in
                try await socket.send(text: "let me in")
                var iterator = socket.messages.makeAsyncIterator()
                return try await iterator.next()
            }
            #expect(echoed == .text("let me in"))
        }
    }

    @Test func wrongCredentialsAreARejectedHandshakeWithTheChallenge() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/basic/ada/s3cret")))
            await #expect {
                try await session.withWebSocket(to: url) { _ in }
            } throws: { error in
                let error = error as? WebSocketError
                return error?.code == .handshakeRejected && error?.response?.statusCode == 401
            }
        }
    }

    @Test func wssUsesTheSessionsTrustedRoots() async throws {
        let certificates = try SandboxCertificates.generate()
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: .trusting(certificates)) { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/echo").replacingOccurrences(of: "https:", with: "wss:")))
            let echoed = try await session.withWebSocket(to: url) { socket in
                try await socket.send(data: Data("over TLS".utf8))
                var iterator = socket.messages.makeAsyncIterator()
                return try await iterator.next()
            }
            #expect(echoed == .binary(Data("over TLS".utf8)))
        }
    }

    @Test func anUntrustedServerIsRefusedAsForARequest() async throws {
        let certificates = try SandboxCertificates.generate()
        try await withSecureSandbox(SandboxTLS(certificates: certificates)) { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/echo")))
            let error = await httpError { try await session.withWebSocket(to: url) { _ in } }
            #expect(error?.code == .certificateRejected, "\(String(describing: error))")
        }
    }

    @Test func aPinnedHostIsReachedOnlyThroughItsPinnedRoot() async throws {
        let certificates = try SandboxCertificates.generate()
        let stranger = try SandboxCertificates.generate()
        func pin(of pem: String) throws -> String {
            try #require(AsyncHTTPClientTransport.Configuration.PEMCertificates(pem: pem).pins().first).pin
        }
        for (root, reached) in [(certificates, true), (stranger, false)] {
            var configuration = try HTTPSession.Configuration.trusting(certificates)
            configuration.transport.tls.pinning = try .init(
                ["127.0.0.1": [try pin(of: root.authorityPEM)]],
                anchors: [.init(pem: certificates.authorityPEM), .init(pem: stranger.authorityPEM)], includingSystemRoots: false)
            try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
                let url = try #require(URL(string: sandbox.url("/ws/echo")))
                do {
                    try await session.withWebSocket(to: url) { _ in }
                    #expect(reached, "the socket opened to a server whose root is not pinned")
                } catch let error as HTTPError {
                    #expect(!reached, "\(error)")
                    #expect(error.code == .certificateRejected)
                }
            }
        }
    }

    @Test func aSessionOnAUnixSocketOpensItsWebSocketsThere() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-ws-socket")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sandbox.sock").path
        let sandbox = try await Sandbox.start(unixSocketPath: path)
        var configuration = HTTPSession.Configuration()
        configuration.transport.unixSocketPath = path
        configuration.logger = quietLogger
        let session = HTTPSession(configuration: configuration)
        let echoed = try await session.withWebSocket(to: try #require(URL(string: "ws://localhost/ws/echo"))) { socket in
            try await socket.send(text: "through a socket file")
            var iterator = socket.messages.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(echoed == .text("through a socket file"))
        try await session.shutdown()
        try await sandbox.shutdown()
    }

    @Test(arguments: [SandboxProxy.Kind.http, .socks5])
    func theSessionsProxyTunnelsTheConnection(kind: SandboxProxy.Kind) async throws {
        let proxy = try await SandboxProxy.start(kind)
        var configuration = HTTPSession.Configuration()
        configuration.transport.proxies = .all(try .init(url: proxy.url))
        try await withSandbox(configuration: configuration) { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/echo")))
            let echoed = try await session.withWebSocket(to: url) { socket in
                try await socket.send(text: "tunnelled")
                var iterator = socket.messages.makeAsyncIterator()
                return try await iterator.next()
            }
            #expect(echoed == .text("tunnelled"))
            #expect(proxy.tunnels == ["127.0.0.1:\(sandbox.port)"])
        }
        try await proxy.shutdown()
    }
}
