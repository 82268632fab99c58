import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz request`'s TLS, HTTP version, proxy and session options, through the built binary
/// against the Sandbox's TLS listener and proxies.
@Suite struct ConnectionOptionTests {
    let certificates: SandboxCertificates

    init() throws {
        certificates = try SandboxCertificates.generate()
    }

    /// A scratch directory with the authority's and the client's PEM files.
    private func writePEMFiles() throws -> (directory: URL, authority: String, client: String) {
        let directory = try makeScratchDirectory()  // the caller removes it
        let authority = directory.appendingPathComponent("ca.pem")
        let client = directory.appendingPathComponent("client.pem")
        try Data(certificates.authorityPEM.utf8).write(to: authority)
        try Data((certificates.clientCertificatePEM + certificates.clientKeyPEM).utf8).write(to: client)
        return (directory, authority.path, client.path)
    }

    @Test func verifyDecidesWhetherASelfSignedServerIsReached() async throws {
        let sandbox = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
        let refused = try await runJewz(["GET", sandbox.url("/hello/")])
        #expect(refused.status == 2)
        #expect(refused.messages.count == 1)
        #expect(refused.error.contains("certificate of 127.0.0.1") && refused.error.contains("was refused") && refused.error.contains("--verify"), "\(refused.error)")
        let unverified = try await runJewz(["--verify", "no", "GET", sandbox.url("/hello/")])
        #expect(unverified.status == 0, "\(unverified.error)")
        #expect(unverified.output == "Hello World")
        let (directory, authority, _) = try writePEMFiles()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trusted = try await runJewz(["--verify", authority, sandbox.url("/hello/")])
        #expect(trusted.output == "Hello World", "\(trusted.error)")
        let missing = try await runJewz(["--verify", "/nonexistent/ca.pem", sandbox.url("/hello/")])
        #expect(missing.status == 1)
        #expect(missing.messages == ["jewz: Invalid configuration: cannot read the PEM file /nonexistent/ca.pem."])
        try await sandbox.shutdown()
    }

    /// `jewz bench` takes a request's connection options, a method and a body: POSTs over
    /// HTTP/2 to a server that refuses the first stream unprocessed all succeed, and the server
    /// processes each once.
    @Test func benchSendsPostsOverVerifiedHTTP2AndLosesNoneToARefusedStream() async throws {
        let sandbox = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
        let (directory, authority, _) = try writePEMFiles()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await runJewz([
            "bench", sandbox.url("/counter?key=bench&fail=0&refuse=1"), "-X", "POST", "--data", "order",
            "-n", "40", "-c", "8", "--verify", authority, "--json",
        ])
        #expect(result.status == 0, "\(result.error)")
        let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect(report?["errors"] as? Int == 0, "\(result.error)")
        #expect(sandbox.router.streamsRefused == 1)
        #expect(sandbox.router.requestCount(forKey: "bench") == 40)
        let http1 = try await runJewz(["bench", sandbox.url("/hello/"), "-n", "4", "--http1", "--verify", "no"])
        #expect(http1.status == 0, "\(http1.error)")
        try await sandbox.shutdown()
    }

    @Test func serveTLSServesHTTPSThatVerifyNoOrTheCAFileReaches() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = directory.appendingPathComponent("ca.pem").path
        let server = try await ServingJewz.start(["--tls", "--port", "0", "--ca-file", authority])
        defer { server.stop() }
        #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
        let refused = try await runJewz(["GET", server.baseURL + "/hello/"])
        #expect(refused.status == 2)
        #expect(refused.messages.count == 1)
        let unverified = try await runJewz(["--verify", "no", "GET", server.baseURL + "/hello/"])
        #expect(unverified.output == "Hello World", "\(unverified.error)")
        let trusted = try await runJewz(["--verify", authority, server.baseURL + "/hello/"])
        #expect(trusted.output == "Hello World", "\(trusted.error)")
    }

    @Test func certPresentsAClientCertificate() async throws {
        var tls = SandboxTLS(certificates: certificates)
        tls.requiresClientCertificate = true
        let sandbox = try await Sandbox.start(tls: tls)
        let (directory, authority, client) = try writePEMFiles()
        defer { try? FileManager.default.removeItem(at: directory) }
        let without = try await runJewz(["--verify", authority, sandbox.url("/hello/")])
        #expect(without.status == 2)
        let with = try await runJewz(["--verify", authority, "--cert", client, sandbox.url("/hello/")])
        #expect(with.output == "Hello World", "\(with.error)")
        try await sandbox.shutdown()
    }

    @Test func certKeyGivesTheClientKeyFromAFileOfItsOwn() async throws {
        var tls = SandboxTLS(certificates: certificates)
        tls.requiresClientCertificate = true
        let sandbox = try await Sandbox.start(tls: tls)
        let (directory, authority, _) = try writePEMFiles()
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = directory.appendingPathComponent("client-cert.pem")
        let key = directory.appendingPathComponent("client-key.pem")
        try Data(certificates.clientCertificatePEM.utf8).write(to: certificate)
        try Data(certificates.clientKeyPEM.utf8).write(to: key)
        let run = try await runJewz(["--verify", authority, "--cert", certificate.path, "--cert-key", key.path, sandbox.url("/hello/")])
        #expect(run.output == "Hello World", "\(run.error)")
        let keyless = try await runJewz(["--verify", authority, "--cert", certificate.path, sandbox.url("/hello/")])
        #expect(keyless.status == 1, "\(keyless.error)")
        try await sandbox.shutdown()
    }

    @Test func aRedirectFromHTTPSToHTTPIsFollowedOnlyWhenAllowed() async throws {
        let secure = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
        let plain = try await Sandbox.start()
        let target = try #require(plain.url("/hello/").addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let url = secure.url("/redirect-to?url=\(target)")
        let refused = try await runJewz(["--verify", "no", "--follow", url])
        #expect(refused.status == 2)
        #expect(refused.messages.count == 1)
        #expect(refused.error.contains("--allow-insecure-redirects"), "\(refused.error)")
        let allowed = try await runJewz(["--verify", "no", "--follow", "--allow-insecure-redirects", url])
        #expect(allowed.output == "Hello World", "\(allowed.error)")
        try await secure.shutdown()
        try await plain.shutdown()
    }

    @Test func http1KeepsToHTTP1WhereHTTP2IsOffered() async throws {
        let sandbox = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
        let negotiated = try await runJewz(["--verify", "no", "--print", "b", sandbox.url("/inspect")])
        #expect(negotiated.output.contains(#""version":"HTTP\/2.0""#), "\(negotiated.output)")
        let http1 = try await runJewz(["--verify", "no", "--http1", "--print", "b", sandbox.url("/inspect")])
        #expect(http1.output.contains(#""version":"HTTP\/1.1""#), "\(http1.output)")
        let head = try await runJewz(["--verify", "no", "--print", "h", sandbox.url("/hello/")])
        #expect(head.output.hasPrefix("HTTP/2 200\n"), "HTTP/2 has no reason phrase: \(head.output)")
        try await sandbox.shutdown()
    }

    @Test func proxySendsThroughAProxyOrSaysWhyNot() async throws {
        let sandbox = try await Sandbox.start()
        let proxy = try await SandboxProxy.start(.http, credentials: ("ada", "pw"))
        let through = try await runJewz(["--proxy", "http://ada:pw@127.0.0.1:\(proxy.port)", sandbox.url("/hello/")])
        #expect(through.output == "Hello World", "\(through.error)")
        // Every tunnel goes to the Sandbox: a handshake slower than the connect timeout on a
        // loaded machine is retried through a second one.
        #expect(!proxy.tunnels.isEmpty && Set(proxy.tunnels) == ["127.0.0.1:\(sandbox.port)"])
        let refused = try await runJewz(["--proxy", "http://127.0.0.1:\(proxy.port)", sandbox.url("/hello/")])
        #expect(refused.status == 2)
        #expect(refused.error.contains("407"))
        let tunnelsBefore = proxy.tunnels.count
        let fromEnvironment = try await runJewz(
            ["--proxy", "env", sandbox.url("/hello/")], environment: ["HTTP_PROXY": "http://ada:pw@127.0.0.1:\(proxy.port)"])
        #expect(fromEnvironment.output == "Hello World", "\(fromEnvironment.error)")
        #expect(proxy.tunnels.count > tunnelsBefore)
        let socks = try await SandboxProxy.start(.socks5)
        let viaSOCKS = try await runJewz(["--proxy", socks.url, sandbox.url("/hello/")])
        #expect(viaSOCKS.output == "Hello World", "\(viaSOCKS.error)")
        #expect(!socks.tunnels.isEmpty)
        let bad = try await runJewz(["--proxy", "ftp://proxy", sandbox.url("/hello/")])
        #expect(bad.status == 1)
        try await proxy.shutdown()
        try await socks.shutdown()
        try await sandbox.shutdown()
    }

    @Test func aSessionFileRemembersHeaders() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.json").path
        let first = try await runJewz(["--session", file, sandbox.url("/hello/"), "X-Team:core", "Content-Type:text/plain"])
        #expect(first.status == 0, "\(first.error)")
        let second = try await runJewz(["--session", file, "--print", "b", sandbox.url("/inspect")])
        let inspection = try #require(try JSONSerialization.jsonObject(with: Data(second.output.utf8)) as? [String: Any])
        let headers = try #require(inspection["headers"] as? [[String]])
        #expect(headers.contains(["X-Team", "core"]))
        #expect(!headers.contains { $0.first?.lowercased() == "content-type" })
        try await sandbox.shutdown()
    }
}
