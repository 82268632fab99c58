import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SwiftASN1
import X509

/// A certificate authority made at run time, the server certificate it signed and a client
/// certificate for mutual TLS, all in PEM: nothing secret is committed, and every run of the
/// tests or the tour trusts only what it made itself.
///
/// ```swift
/// let certificates = try SandboxCertificates.generate()
/// let sandbox = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
/// // A client trusts certificates.authorityPEM to reach https://127.0.0.1:\(sandbox.port)/.
/// ```
public struct SandboxCertificates: Sendable {
    /// The authority's certificate: what a client adds to its trusted roots.
    public let authorityPEM: String
    /// The server's certificate followed by nothing else (the authority signed it directly).
    public let serverCertificatePEM: String
    /// The server certificate's private key (PKCS #8).
    public let serverKeyPEM: String
    /// A certificate the authority signed for clients (mutual TLS).
    public let clientCertificatePEM: String
    /// The client certificate's private key (PKCS #8).
    public let clientKeyPEM: String

    /// Makes a new authority and certificates signed by it.
    ///
    /// - Parameter serverNames: the DNS names and IP addresses the server certificate is valid
    ///   for; by default the loopback names the Sandbox listens on.
    /// - Throws: swift-certificates' error when a certificate cannot be built.
    public static func generate(serverNames: [String] = ["127.0.0.1", "localhost", "::1"]) throws -> SandboxCertificates {
        let now = Date()
        let validity = (now.addingTimeInterval(-3600), now.addingTimeInterval(30 * 86_400))
        let authorityKey = P256.Signing.PrivateKey()
        let authorityName = try DistinguishedName { CommonName("Jewzruxin Sandbox CA") }
        let authority = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(authorityKey.publicKey),
            notValidBefore: validity.0, notValidAfter: validity.1, issuer: authorityName, subject: authorityName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true))
            },
            issuerPrivateKey: .init(authorityKey))

        func leaf(_ commonName: String, usage: ExtendedKeyUsage.Usage, names: [GeneralName]) throws -> (String, String) {
            let key = P256.Signing.PrivateKey()
            let certificate = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey),
                notValidBefore: validity.0, notValidAfter: validity.1, issuer: authorityName,
                subject: try DistinguishedName { CommonName(commonName) },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([usage])
                    if !names.isEmpty { SubjectAlternativeNames(names) }
                },
                issuerPrivateKey: .init(authorityKey))
            return (try certificate.serializeAsPEM().pemString, key.pemRepresentation)
        }

        let server = try leaf("Jewzruxin Sandbox", usage: .serverAuth, names: serverNames.map(generalName))
        let client = try leaf("Jewzruxin Sandbox client", usage: .clientAuth, names: [])
        return SandboxCertificates(
            authorityPEM: try authority.serializeAsPEM().pemString,
            serverCertificatePEM: server.0, serverKeyPEM: server.1,
            clientCertificatePEM: client.0, clientKeyPEM: client.1)
    }

    /// An IP address as its octets, anything else as a DNS name.
    private static func generalName(_ name: String) -> GeneralName {
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: withUnsafeBytes(of: &v4) { ArraySlice($0) }))
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: withUnsafeBytes(of: &v6) { ArraySlice($0) }))
        }
        return .dnsName(name)
    }
}
