import Foundation
import JewzHTTPCore
import JewzSandbox

/// Runs `body` with a Sandbox speaking TLS as `tls` says and a fresh session, then stops both.
public func withSecureSandbox(
    _ tls: SandboxTLS, configuration: HTTPSession.Configuration = .init(),
    _ body: (Sandbox, HTTPSession) async throws -> Void
) async throws {
    let sandbox = try await Sandbox.start(tls: tls)
    try await withSession(
        configuration: configuration, transport: .asyncHTTPClient, registry: ProcessorRegistry(),
        contentCodings: ContentCodingRegistry(), server: sandbox, shutdown: { try await sandbox.shutdown() }, body)
}

extension HTTPSession.Configuration {
    /// A configuration whose transport trusts the authority that signed `certificates`.
    ///
    /// Its connect timeout, which covers the TLS handshake, is a minute: beside the whole suite
    /// on 2 cores a handshake was seen to take over the default 10 seconds three times running,
    /// failing a test that is not about timeouts.
    public static func trusting(_ certificates: SandboxCertificates) throws -> HTTPSession.Configuration {
        var configuration = HTTPSession.Configuration()
        configuration.transport.tls.additionalTrustRoots = [try .init(pem: certificates.authorityPEM)]
        configuration.transport.timeouts.connect = .seconds(60)
        return configuration
    }
}
