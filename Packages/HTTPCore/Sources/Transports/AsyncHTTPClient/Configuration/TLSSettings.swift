import Foundation
import NIOSSL

extension AsyncHTTPClientTransport.Configuration {
    /// How the transport checks servers and proves who it is. Verification is on by default:
    /// a server must present a certificate for its host name, signed by a trusted root.
    ///
    /// ```swift
    /// var tls = AsyncHTTPClientTransport.Configuration.TLS()
    /// tls.additionalTrustRoots = [try .init(contentsOfFile: "/etc/my-ca.pem")]
    /// tls.clientIdentity = try .init(certificateFile: "client.pem", privateKeyFile: "client.key")
    /// tls.minimumVersion = .tls13
    /// ```
    public struct TLS: Sendable {
        /// How much of the server's certificate is checked.
        public var verification = Verification.full
        /// The roots a server's chain must end at: the system's (the default), or only these.
        public var trustRoots = TrustRoots.system
        /// Roots trusted beside ``trustRoots``: a company's or a test server's authority.
        public var additionalTrustRoots: [PEMCertificates] = []
        /// The certificate and key presented when a server asks (mutual TLS); `nil` for none.
        public var clientIdentity: ClientIdentity?
        /// The oldest TLS version the transport accepts.
        public var minimumVersion = Version.tls12
        /// Hosts whose chains must end at a root with a pinned key; `nil` (the default) for
        /// none. A pinned host's chain is always verified, whatever ``verification`` says.
        public var pinning: CertificatePinning?

        /// The defaults: the system's roots, full verification, TLS 1.2 at least, no client
        /// certificate, no pins.
        public init() {}

        /// How much of the server's certificate chain is checked.
        public enum Verification: Sendable, Hashable {
            /// The chain must end at a trusted root and name the host (the default).
            case full
            /// The chain must end at a trusted root; the host name is not checked.
            case skipHostname
            /// Nothing is checked: anyone between you and the server can read and change the
            /// traffic. For test servers only (`jewz --verify no`).
            case none
        }

        /// The certificate authorities a server's chain may end at.
        public enum TrustRoots: Sendable {
            /// The operating system's roots.
            case system
            /// These roots and no others (nor the system's).
            case only([PEMCertificates])
        }

        /// A TLS protocol version.
        public enum Version: Sendable, Hashable {
            /// TLS 1.2 (RFC 5246).
            case tls12
            /// TLS 1.3 (RFC 8446).
            case tls13
        }

        /// NIOSSL's configuration for these settings.
        func nioConfiguration(allowsHTTP2: Bool) -> TLSConfiguration {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = switch verification {
            case .full: .fullVerification
            case .skipHostname: .noHostnameVerification
            case .none: .none
            }
            if case .only(let roots) = trustRoots {
                configuration.trustRoots = .certificates(roots.flatMap(\.certificates))
            }
            configuration.additionalTrustRoots = additionalTrustRoots.map { .certificates($0.certificates) }
            if let clientIdentity {
                configuration.certificateChain = clientIdentity.chain.map { .certificate($0) }
                configuration.privateKey = .privateKey(clientIdentity.key)
            }
            configuration.minimumTLSVersion = minimumVersion == .tls13 ? .tlsv13 : .tlsv12
            configuration.applicationProtocols = allowsHTTP2 ? ["h2", "http/1.1"] : ["http/1.1"]
            return configuration
        }
    }

    /// Certificates read from PEM, checked when made so that a session never starts with a
    /// file it cannot use.
    public struct PEMCertificates: Sendable {
        let certificates: [NIOSSLCertificate]

        /// Reads every certificate of a PEM file.
        ///
        /// - Throws: ``HTTPError/Code/invalidConfiguration`` when the file cannot be read or
        ///   holds no PEM certificate.
        public init(contentsOfFile path: String) throws {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw HTTPError.invalidConfiguration("cannot read the PEM file \(path)")
            }
            try self.init(pem: String(decoding: data, as: UTF8.self), source: path)
        }

        /// Reads every certificate of a PEM text.
        ///
        /// - Throws: ``HTTPError/Code/invalidConfiguration`` when it holds no PEM certificate.
        public init(pem: String) throws {
            try self.init(pem: pem, source: "the PEM text")
        }

        private init(pem: String, source: String) throws {
            // Only the certificate blocks: a file may hold the key too (curl's --cert does).
            let blocks = pemBlocks(in: pem) { $0 == "CERTIFICATE" }
            let certificates = try? blocks.map { try NIOSSLCertificate(bytes: Array($0.utf8), format: .pem) }
            guard let certificates, !certificates.isEmpty else {
                throw HTTPError.invalidConfiguration("\(source) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
            self.certificates = certificates
        }
    }

    /// A client certificate chain and its private key, for servers that ask for one.
    public struct ClientIdentity: Sendable {
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey

        /// Reads the chain (leaf first) and an unencrypted private key, both PEM.
        ///
        /// - Throws: ``HTTPError/Code/invalidConfiguration`` when either cannot be read or parsed.
        public init(certificateFile: String, privateKeyFile: String) throws {
            guard let key = FileManager.default.contents(atPath: privateKeyFile) else {
                throw HTTPError.invalidConfiguration("cannot read the private key file \(privateKeyFile)")
            }
            try self.init(
                chain: PEMCertificates(contentsOfFile: certificateFile), keyPEM: String(decoding: key, as: UTF8.self),
                keySource: privateKeyFile)
        }

        /// Takes the chain (leaf first) and an unencrypted private key as PEM text.
        ///
        /// - Throws: ``HTTPError/Code/invalidConfiguration`` when either cannot be parsed.
        public init(certificatePEM: String, privateKeyPEM: String) throws {
            try self.init(chain: PEMCertificates(pem: certificatePEM), keyPEM: privateKeyPEM, keySource: "the key PEM text")
        }

        private init(chain: PEMCertificates, keyPEM: String, keySource: String) throws {
            // The first key block: the file may hold the certificates too.
            let block = pemBlocks(in: keyPEM) { $0.hasSuffix("PRIVATE KEY") }.first
            guard let block, let key = try? NIOSSLPrivateKey(bytes: Array(block.utf8), format: .pem) else {
                throw HTTPError.invalidConfiguration("\(keySource) holds no unencrypted PEM private key")
            }
            self.chain = chain.certificates
            self.key = key
        }
    }
}

/// The PEM blocks of `text` whose label (`CERTIFICATE`, `EC PRIVATE KEY`…) satisfies `wanted`,
/// each from its BEGIN line to its END line; the text around them is ignored.
private func pemBlocks(in text: String, where wanted: (Substring) -> Bool) -> [Substring] {
    var blocks: [Substring] = []
    var rest = text[...]
    while let begin = rest.range(of: "-----BEGIN "), let labelEnd = rest[begin.upperBound...].range(of: "-----") {
        let label = rest[begin.upperBound..<labelEnd.lowerBound]
        guard let end = rest[labelEnd.upperBound...].range(of: "-----END \(label)-----") else { break }
        if wanted(label) { blocks.append(rest[begin.lowerBound..<end.upperBound]) }
        rest = rest[end.upperBound...]
    }
    return blocks
}
