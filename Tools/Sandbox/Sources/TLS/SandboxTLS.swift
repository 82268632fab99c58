import NIOSSL

/// How the Sandbox speaks TLS: its certificate, whether it asks clients for one, the oldest
/// version it accepts and whether it offers HTTP/2 by ALPN.
public struct SandboxTLS: Sendable {
    public enum Version: Sendable {
        case tls12, tls13
    }

    public var certificates: SandboxCertificates
    /// Whether a client must present a certificate signed by the Sandbox's authority.
    public var requiresClientCertificate = false
    /// Whether ALPN offers `h2` before `http/1.1`.
    public var offersHTTP2 = true
    /// The oldest TLS version accepted.
    public var minimumVersion: Version = .tls12
    /// The newest TLS version accepted (lower it to test a client's minimum).
    public var maximumVersion: Version = .tls13

    public init(certificates: SandboxCertificates) {
        self.certificates = certificates
    }

    /// The server context NIOSSL handshakes with.
    func makeContext() throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificates.serverCertificatePEM.utf8))
        let key = try NIOSSLPrivateKey(bytes: Array(certificates.serverKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = Self.nio(minimumVersion)
        configuration.maximumTLSVersion = Self.nio(maximumVersion)
        configuration.applicationProtocols = offersHTTP2 ? ["h2", "http/1.1"] : ["http/1.1"]
        if requiresClientCertificate {
            let authority = try NIOSSLCertificate.fromPEMBytes(Array(certificates.authorityPEM.utf8))
            configuration.trustRoots = .certificates(authority)
            configuration.certificateVerification = .noHostnameVerification
        }
        return try NIOSSLContext(configuration: configuration)
    }

    private static func nio(_ version: Version) -> TLSVersion {
        switch version {
        case .tls12: .tlsv12
        case .tls13: .tlsv13
        }
    }
}
