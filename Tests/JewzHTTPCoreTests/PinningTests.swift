import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// Certificate pinning against the Sandbox's TLS listener: a pinned host is reached only when
/// its chain ends at a root whose key is pinned, whatever else the transport trusts.
@Suite struct PinningTests {
    typealias Pinning = AsyncHTTPClientTransport.Configuration.CertificatePinning

    let certificates: SandboxCertificates
    /// Another authority, trusted as an anchor but not the one that signed the Sandbox.
    let stranger: SandboxCertificates

    init() throws {
        certificates = try SandboxCertificates.generate()
        stranger = try SandboxCertificates.generate()
    }

    private func pin(of pem: String) throws -> String {
        try #require(AsyncHTTPClientTransport.Configuration.PEMCertificates(pem: pem).pins().first).pin
    }

    /// A configuration that trusts both authorities, pinned as `pins` says.
    private func configuration(pinning pins: [String: [String]]) throws -> HTTPSession.Configuration {
        var configuration = try HTTPSession.Configuration.trusting(certificates)
        configuration.transport.tls.additionalTrustRoots.append(try .init(pem: stranger.authorityPEM))
        configuration.transport.tls.pinning = try Pinning(
            pins, anchors: [.init(pem: certificates.authorityPEM), .init(pem: stranger.authorityPEM)], includingSystemRoots: false)
        return configuration
    }

    @Test func aHostPinnedToItsRootIsReached() async throws {
        let configuration = try configuration(pinning: ["127.0.0.1": [try pin(of: certificates.authorityPEM)]])
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.text == "Hello World")
        }
    }

    @Test func anotherRootIsRefusedThoughTrustedAndTheFailureListsTheChainsPins() async throws {
        let wrong = try pin(of: stranger.authorityPEM)
        let configuration = try configuration(pinning: ["127.0.0.1": [wrong]])
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect(error?.code == .pinMismatch)
            let leaf = try pin(of: certificates.serverCertificatePEM)
            let text = error?.description ?? ""
            #expect(text.contains("127.0.0.1"))
            #expect(text.contains(leaf), "the served certificate's pin is listed: \(text)")
            #expect(text.contains("the pins are \(wrong)"))
        }
    }

    @Test func onlyPinnedHostsAreHeldToTheirPins() async throws {
        // localhost is pinned to the wrong root; 127.0.0.1, the same server, is not pinned.
        let configuration = try configuration(pinning: ["localhost": [try pin(of: stranger.authorityPEM)]])
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let direct = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(direct.statusCode == 200)
            let named = sandbox.url("/hello/").replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let error = await httpError { try await HTTPCycle.get(named, session: session) }
            #expect(error?.code == .pinMismatch)
        }
    }

    @Test func pinsHoldEvenWithVerificationOff() async throws {
        var configuration = try configuration(pinning: ["127.0.0.1": [try pin(of: stranger.authorityPEM)]])
        configuration.transport.tls.verification = .none
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect(error?.code == .pinMismatch)
        }
    }

    @Test func aBackupPinBesideTheRightOneChangesNothing() async throws {
        let backup = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()
        let configuration = try configuration(pinning: ["**.0.0.1": [backup, try pin(of: certificates.authorityPEM)]])
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.statusCode == 200)
        }
    }

    @Test func theServedChainsPinsAreRead() async throws {
        let sandbox = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
        let served = try await AsyncHTTPClientTransport.pins(servedBy: "127.0.0.1", port: sandbox.port)
        try await sandbox.shutdown()
        #expect(served.map(\.pin) == [try pin(of: certificates.serverCertificatePEM)])
        #expect(served.first?.commonName == "Jewzruxin Sandbox")
    }

    @Test func aPortWithNoServerIsAConnectionFailure() async throws {
        let error = try await withRefusingPort { port in
            await httpError { _ = try await AsyncHTTPClientTransport.pins(servedBy: "127.0.0.1", port: port) }
        }
        #expect(error?.code == .connectionFailed)
    }

    @Test func whatCannotBeEnforcedIsRefusedUpFront() throws {
        let anchor = try [AsyncHTTPClientTransport.Configuration.PEMCertificates(pem: certificates.authorityPEM)]
        let right = try pin(of: certificates.authorityPEM)
        let leaf = try pin(of: certificates.serverCertificatePEM)
        func refusal(_ pins: [String: [String]]) -> String? {
            do {
                _ = try Pinning(pins, anchors: anchor, includingSystemRoots: false)
                return nil
            } catch let error as HTTPError where error.code == .invalidConfiguration {
                return error.description
            } catch {
                return "\(error)"
            }
        }
        #expect(refusal(["api.example": ["sha1/AAAA"]])?.contains("is not a pin") == true)
        #expect(refusal(["api.example": ["sha256/AAAA"]])?.contains("is not a pin") == true)
        #expect(refusal(["api example": [right]])?.contains("is not a host pattern") == true)
        #expect(refusal(["*.": [right]])?.contains("is not a host pattern") == true)
        #expect(refusal(["api.example": [leaf]])?.contains("A leaf or intermediate key cannot be enforced: AsyncHTTPClient 1.37") == true)
        #expect(refusal(["API.example": [right]]) == nil)
        #expect(try Pinning(["API.Example": [right]], anchors: anchor, includingSystemRoots: false).hostPatterns == ["api.example"])
    }

    @Test(arguments: [
        ("api.example.com", "api.example.com", true), ("API.example.com", "api.example.com", true),
        ("example.com", "api.example.com", false), ("a.example.com", "*.example.com", true),
        ("a.b.example.com", "*.example.com", false), ("example.com", "*.example.com", false),
        ("example.com", "**.example.com", true), ("a.b.example.com", "**.example.com", true),
        ("badexample.com", "**.example.com", false), ("xexample.com", "*.example.com", false),
    ])
    func hostPatternsMatchAsOkHttpsDo(host: String, pattern: String, matches: Bool) throws {
        let anchor = try AsyncHTTPClientTransport.Configuration.PEMCertificates(pem: certificates.authorityPEM)
        let pinning = try Pinning([pattern: [try pin(of: certificates.authorityPEM)]], anchors: [anchor], includingSystemRoots: false)
        #expect(pinning.isPinned(host: host) == matches)
    }
}
