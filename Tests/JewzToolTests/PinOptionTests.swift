import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz pins` and `jewz --pin`, through the built binary against the Sandbox's TLS listener.
@Suite struct PinOptionTests {
    let certificates: SandboxCertificates

    init() throws {
        certificates = try SandboxCertificates.generate()
    }

    private func pin(of pem: String) throws -> String {
        try #require(AsyncHTTPClientTransport.Configuration.PEMCertificates(pem: pem).pins().first).pin
    }

    @Test func pinsPrintsAServersAndAFilesPins() async throws {
        let sandbox = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
        defer { Task { try? await sandbox.shutdown() } }
        let served = try await runJewz(["pins", sandbox.baseURL])
        #expect(served.status == 0, "\(served.error)")
        #expect(served.output == "\(try pin(of: certificates.serverCertificatePEM)) (CN=Jewzruxin Sandbox)\n")
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = directory.appendingPathComponent("ca.pem")
        try Data(certificates.authorityPEM.utf8).write(to: authority)
        let file = try await runJewz(["pins", authority.path])
        #expect(file.output == "\(try pin(of: certificates.authorityPEM)) (CN=Jewzruxin Sandbox CA)\n", "\(file.error)")
        let nothing = try await runJewz(["pins", "https://127.0.0.1:1/"])
        #expect(nothing.status == 2)
        #expect(nothing.messages.count == 1)
        let neither = try await runJewz(["pins", "ftp://example.com/"])
        #expect(neither.status == 1)
    }

    @Test func pinDecidesWhetherATrustedServerIsReached() async throws {
        let sandbox = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
        defer { Task { try? await sandbox.shutdown() } }
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // ca.pem holds the Sandbox's authority and a stranger's, both trusted by --verify.
        let stranger = try SandboxCertificates.generate()
        let authorities = directory.appendingPathComponent("ca.pem")
        try Data((certificates.authorityPEM + stranger.authorityPEM).utf8).write(to: authorities)
        let right = try pin(of: certificates.authorityPEM)
        let wrong = try pin(of: stranger.authorityPEM)

        let pinned = try await runJewz(["--verify", authorities.path, "--pin", "127.0.0.1=\(right)", sandbox.url("/hello/")])
        #expect(pinned.output == "Hello World", "\(pinned.error)")
        let refused = try await runJewz(["--verify", authorities.path, "--pin", "127.0.0.1=\(wrong)", sandbox.url("/hello/")])
        #expect(refused.status == 2)
        #expect(refused.messages.count == 1)
        #expect(refused.error.contains("ends at no root with a pinned key"), "\(refused.error)")
        #expect(refused.error.contains(try pin(of: certificates.serverCertificatePEM)))
        let elsewhere = try await runJewz(["--verify", authorities.path, "--pin", "*.example.com=\(wrong)", sandbox.url("/hello/")])
        #expect(elsewhere.output == "Hello World", "an unpinned host is reached as before: \(elsewhere.error)")
        let leaf = try await runJewz(["--verify", authorities.path, "--pin", "127.0.0.1=\(try pin(of: certificates.serverCertificatePEM))", sandbox.url("/hello/")])
        #expect(leaf.status == 1)
        #expect(leaf.error.contains("A leaf or intermediate key cannot be enforced: AsyncHTTPClient 1.37"), "\(leaf.error)")
        let malformed = try await runJewz(["--pin", "127.0.0.1", sandbox.url("/hello/")])
        #expect(malformed.status == 1)
        #expect(malformed.messages.count == 1)
    }
}
