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
    public static func trusting(_ certificates: SandboxCertificates) throws -> HTTPSession.Configuration {
        var configuration = HTTPSession.Configuration()
        configuration.transport.tls.additionalTrustRoots = [try .init(pem: certificates.authorityPEM)]
        return configuration
    }
}
