import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// Requests through the Sandbox's HTTP (CONNECT) and SOCKS5 proxies, to plain and TLS servers.
@Suite struct ProxyTests {
    typealias Proxy = AsyncHTTPClientTransport.Configuration.Proxy
    typealias Proxies = AsyncHTTPClientTransport.Configuration.Proxies

    /// Runs `body` with a proxy of `kind` and a session sending everything through it.
    private func withProxy(
        _ kind: SandboxProxy.Kind, credentials: (user: String, password: String)? = nil, url: (SandboxProxy) -> String,
        tls: SandboxTLS? = nil, _ body: (Sandbox, SandboxProxy, HTTPSession) async throws -> Void
    ) async throws {
        let proxy = try await SandboxProxy.start(kind, credentials: credentials)
        defer { Task { try? await proxy.shutdown() } }
        var configuration = try tls.map { try HTTPSession.Configuration.trusting($0.certificates) } ?? .init()
        configuration.transport.proxies = .all(try Proxy(url: url(proxy)))
        // A proxy's handshake is part of connecting: on a machine starved by the whole suite it
        // outlasted the default ten seconds, and a 407 read as a timeout.
        configuration.transport.timeouts.connect = .seconds(120)
        if let tls {
            try await withSecureSandbox(tls, configuration: configuration) { try await body($0, proxy, $1) }
        } else {
            try await withSandbox(configuration: configuration) { try await body($0, proxy, $1) }
        }
    }

    @Test func anHTTPProxyWithCredentialsTunnelsPlainRequests() async throws {
        try await withProxy(.http, credentials: ("ada", "s3cret"), url: { "http://ada:s3cret@127.0.0.1:\($0.port)" }) { sandbox, proxy, session in
            let response = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            #expect(try Inspection(response).values("Proxy-Authorization").isEmpty)
            // Every tunnel goes to the Sandbox: a handshake slower than the connect timeout on a
            // loaded machine is retried through a second one.
            #expect(!proxy.tunnels.isEmpty && Set(proxy.tunnels) == ["127.0.0.1:\(sandbox.port)"])
        }
    }

    @Test func anHTTPProxyTunnelsTLS() async throws {
        let tls = SandboxTLS(certificates: try SandboxCertificates.generate())
        try await withProxy(.http, url: { "127.0.0.1:\($0.port)" }, tls: tls) { sandbox, proxy, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.text == "Hello World")
            // Every tunnel goes to the Sandbox: a handshake slower than the connect timeout on a
            // loaded machine is retried through a second one.
            #expect(!proxy.tunnels.isEmpty && Set(proxy.tunnels) == ["127.0.0.1:\(sandbox.port)"])
        }
    }

    @Test func aProxyAsking407IsAClearError() async throws {
        try await withProxy(.http, credentials: ("ada", "s3cret"), url: { "http://ada:wrong@127.0.0.1:\($0.port)" }) { sandbox, proxy, session in
            let error = await httpError { try await HTTPCycle(sandbox.url("/hello/"), method: .get, options: .init(retryPolicy: .never), session: session).start() }
            #expect(error?.code == .proxyAuthenticationRequired)
            #expect(error?.description.contains("407") == true)
            #expect(proxy.refusedHandshakes >= 1)
            #expect(proxy.tunnels.isEmpty)
        }
    }

    @Test func aSOCKS5ProxyTunnelsPlainAndTLSRequests() async throws {
        try await withProxy(.socks5, url: { "socks5://127.0.0.1:\($0.port)" }) { sandbox, proxy, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.text == "Hello World")
            // Every tunnel goes to the Sandbox: a handshake slower than the connect timeout on a
            // loaded machine is retried through a second one.
            #expect(!proxy.tunnels.isEmpty && Set(proxy.tunnels) == ["127.0.0.1:\(sandbox.port)"])
        }
        let tls = SandboxTLS(certificates: try SandboxCertificates.generate())
        try await withProxy(.socks5, url: { "socks5://127.0.0.1:\($0.port)" }, tls: tls) { sandbox, proxy, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.text == "Hello World")
            #expect(!proxy.tunnels.isEmpty && Set(proxy.tunnels) == ["127.0.0.1:\(sandbox.port)"], "a slow handshake is retried")
        }
    }

    @Test func theEnvironmentIsReadOnlyWhenAskedAndNoProxyBypasses() async throws {
        #expect(HTTPSession.Configuration().transport.proxies == nil)
        #expect(try Proxies.environment([:]) == nil)
        let proxy = try await SandboxProxy.start(.http)
        defer { Task { try? await proxy.shutdown() } }
        var configuration = HTTPSession.Configuration()
        configuration.transport.proxies = try Proxies.environment(["HTTP_PROXY": proxy.url, "no_proxy": "example.org, localhost"])
        try await withSandbox(configuration: configuration) { sandbox, session in
            _ = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            // A tunnel slower than the connect timeout on a loaded machine is retried through a
            // second one: every tunnel goes to the Sandbox, and the bypassed host adds none.
            let tunnels = proxy.tunnels
            #expect(!tunnels.isEmpty && Set(tunnels) == ["127.0.0.1:\(sandbox.port)"])
            _ = try await HTTPCycle.get("http://localhost:\(sandbox.port)/hello/", session: session)
            #expect(proxy.tunnels.count == tunnels.count)
        }
    }

    @Test func proxyURLsAndBypassRulesReadAsCurlsDo() throws {
        let proxy = try Proxy(url: "http://ada:p%40ss@proxy.example:3128")
        #expect(proxy.kind == .http && proxy.host == "proxy.example" && proxy.port == 3128)
        #expect(proxy.credentials == .init(user: "ada", password: "p@ss"))
        #expect(proxy.description == "http://ada:***@proxy.example:3128")
        #expect(try Proxy(url: "socks5://127.0.0.1").port == 1080)
        #expect(try Proxy(url: "proxy.example").port == 80)
        for bad in ["ftp://proxy.example", "http://", "socks5://u:p@host:1080"] {
            #expect(throws: HTTPError.self) { try Proxy(url: bad) }
        }
        let env = try #require(try Proxies.environment([
            "https_proxy": "http://secure:8443", "ALL_PROXY": "socks5://any:1080", "NO_PROXY": ".internal,api.example:8080,[::1]",
        ]))
        #expect(env.https?.host == "secure")
        #expect(env.http?.kind == .socks5)
        #expect(env.bypass == [".internal", "api.example:8080", "[::1]"])
    }
}
