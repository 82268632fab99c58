import Crypto
import Foundation
import NIOSSL

extension AsyncHTTPClientTransport {
    /// A certificate's public-key pin, as ``Configuration/CertificatePinning`` takes it, and
    /// whose certificate it is.
    public struct CertificatePin: Sendable, Hashable, CustomStringConvertible {
        /// `sha256/` and the base64 of the SHA-256 of the certificate's SubjectPublicKeyInfo.
        public let pin: String
        /// The certificate subject's common name, if it has one.
        public let commonName: String?

        /// The pin, and the common name after it when there is one.
        public var description: String { commonName.map { "\(pin) (CN=\($0))" } ?? pin }

        /// - Throws: ``HTTPError/Code/invalidConfiguration`` when the key cannot be read.
        init(certificate: NIOSSLCertificate) throws {
            do {
                let key = try certificate.extractPublicKey().toSPKIBytes()
                pin = "sha256/" + Data(SHA256.hash(data: key)).base64EncodedString()
            } catch {
                throw HTTPError.invalidConfiguration("a certificate's public key cannot be read (\(error))")
            }
            commonName = Self.commonName(of: certificate)
        }

        /// The common name NIOSSL shows in a certificate's description, the one place it offers it.
        private static func commonName(of certificate: NIOSSLCertificate) -> String? {
            let text = certificate.description
            guard let start = text.range(of: ";common_name=") else { return nil }
            return String(text[start.upperBound...].prefix { $0 != ";" && $0 != ">" })
        }
    }
}

extension AsyncHTTPClientTransport.Configuration.PEMCertificates {
    /// The pins of these certificates' keys, in their order: what to give
    /// ``AsyncHTTPClientTransport/Configuration/CertificatePinning`` for a root.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration`` when a key cannot be read.
    public func pins() throws -> [AsyncHTTPClientTransport.CertificatePin] {
        try certificates.map(AsyncHTTPClientTransport.CertificatePin.init(certificate:))
    }
}
