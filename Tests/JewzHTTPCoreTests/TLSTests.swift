import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// The transport's TLS settings against the Sandbox's TLS listener, whose authority and
/// certificates each test makes anew.
@Suite struct TLSTests {
    let certificates: SandboxCertificates

    init() throws {
        certificates = try SandboxCertificates.generate()
    }

    @Test func anUntrustedCertificateIsRefusedWithWhatToDo() async throws {
        try await withSecureSandbox(SandboxTLS(certificates: certificates)) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect(error?.code == .certificateRejected)
            let port = try #require(URL(string: sandbox.url("/"))?.port)
            #expect(error?.description == "The TLS certificate of 127.0.0.1 port \(port) was refused: it is self-signed, signed by an authority not trusted here, or expired. Trust its authority with the transport's tls.additionalTrustRoots, or, for a test server only, turn verification off.")
            #expect(error?.underlying != nil, "the TLS library's own error stays available to code")
        }
    }

    @Test func extraRootsFromAPEMFileAreTrusted() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("ca.pem")
        try Data(certificates.authorityPEM.utf8).write(to: file)
        var configuration = HTTPSession.Configuration()
        configuration.transport.tls.additionalTrustRoots = [try .init(contentsOfFile: file.path)]
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.text == "Hello World")
        }
    }

    @Test func aCertificateForAnotherHostIsRefused() async throws {
        let elsewhere = try SandboxCertificates.generate(serverNames: ["elsewhere.example"])
        try await withSecureSandbox(SandboxTLS(certificates: elsewhere), configuration: .trusting(elsewhere)) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect(error?.code == .certificateRejected)
            #expect(error?.description.contains("issued for another host name") == true, "\(String(describing: error))")
        }
        // The same certificate passes when only the chain is checked.
        var configuration = try HTTPSession.Configuration.trusting(elsewhere)
        configuration.transport.tls.verification = .skipHostname
        try await withSecureSandbox(SandboxTLS(certificates: elsewhere), configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.statusCode == 200)
        }
    }

    @Test func replacedRootsTrustOnlyThemselves() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.transport.tls.trustRoots = .only([try .init(pem: certificates.authorityPEM)])
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.statusCode == 200)
        }
        let stranger = try SandboxCertificates.generate()
        configuration.transport.tls.trustRoots = .only([try .init(pem: stranger.authorityPEM)])
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect(error?.code == .certificateRejected)
        }
    }

    @Test func verificationOffReachesAnyServer() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.transport.tls.verification = .none
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.text == "Hello World")
        }
    }

    @Test func mutualTLSPresentsTheClientIdentity() async throws {
        var tls = SandboxTLS(certificates: certificates)
        tls.requiresClientCertificate = true
        try await withSecureSandbox(tls, configuration: .trusting(certificates)) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect([.tlsHandshakeFailed, .connectionLost].contains(error?.code))
        }
        var configuration = try HTTPSession.Configuration.trusting(certificates)
        configuration.transport.tls.clientIdentity = try .init(
            certificatePEM: certificates.clientCertificatePEM, privateKeyPEM: certificates.clientKeyPEM)
        try await withSecureSandbox(tls, configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.text == "Hello World")
        }
    }

    @Test func aMinimumVersionRefusesOlderServers() async throws {
        var tls = SandboxTLS(certificates: certificates)
        tls.maximumVersion = .tls12
        var configuration = try HTTPSession.Configuration.trusting(certificates)
        try await withSecureSandbox(tls, configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.statusCode == 200)
        }
        configuration.transport.tls.minimumVersion = .tls13
        try await withSecureSandbox(tls, configuration: configuration) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect(error?.code == .tlsHandshakeFailed)
        }
    }

    @Test func unusablePEMIsAConfigurationError() throws {
        let missing = #expect(throws: HTTPError.self) {
            try AsyncHTTPClientTransport.Configuration.PEMCertificates(contentsOfFile: "/nonexistent/ca.pem")
        }
        #expect(missing?.code == .invalidConfiguration)
        #expect(missing?.description.contains("/nonexistent/ca.pem") == true)
        let garbage = #expect(throws: HTTPError.self) {
            try AsyncHTTPClientTransport.Configuration.PEMCertificates(pem: "not a certificate")
        }
        #expect(garbage?.code == .invalidConfiguration)
        let key = #expect(throws: HTTPError.self) {
            try AsyncHTTPClientTransport.Configuration.ClientIdentity(
                certificatePEM: certificates.clientCertificatePEM, privateKeyPEM: "no key")
        }
        #expect(key?.code == .invalidConfiguration)
    }
}
