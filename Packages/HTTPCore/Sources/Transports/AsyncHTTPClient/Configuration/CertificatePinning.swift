import Foundation
import NIOSSL

extension AsyncHTTPClientTransport.Configuration {
    /// Pins hosts to the public keys of the roots their certificate chains must end at.
    ///
    /// A pin is OkHttp's: `sha256/` and the base64 of the SHA-256 of a certificate's
    /// SubjectPublicKeyInfo. Host patterns are exact names, `*.example.com` (one label more) or
    /// `**.example.com` (any number more, or none).
    ///
    /// ```swift
    /// var configuration = HTTPSession.Configuration()
    /// configuration.transport.tls.pinning = try .init([
    ///     "api.example.com": ["sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=",  // the root
    ///                         "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="], // its backup
    /// ])
    /// ```
    ///
    /// What it guarantees: a request to a pinned host is sent only over a connection whose
    /// chain verified (signatures, dates, host name) up to a root whose key is pinned; the
    /// system's other roots and ``TLS/additionalTrustRoots`` are not trusted for that host.
    /// How: AsyncHTTPClient 1.37 offers no hook into certificate verification, so the
    /// transport gives pinned hosts a TLS configuration whose only trust roots are the pinned
    /// ones. Hence pins must name keys of roots the pinning knows — the system's roots and the
    /// `anchors` given — and a pin on a leaf or intermediate key cannot be enforced: the
    /// initializer refuses a host none of whose pins is a known root's key. A pin that matches
    /// no root (a backup for a root not yet deployed) changes nothing until its root is given.
    public struct CertificatePinning: Sendable {
        struct Rule: Sendable {
            let pattern: String
            let pins: [String]
            /// The roots whose keys are pinned.
            let anchors: [NIOSSLCertificate]
        }

        let rules: [Rule]

        /// Pins each host pattern to its pins.
        ///
        /// - Parameters:
        ///   - pins: host pattern → pins; a host matching several patterns may end at any of
        ///     their roots.
        ///   - anchors: roots besides the system's that pins may name (a company's authority).
        ///   - includingSystemRoots: whether the system's roots may be named too.
        /// - Throws: ``HTTPError/Code/invalidConfiguration`` for a malformed pin or host pattern,
        ///   and for a host none of whose pins is the key of a known root.
        public init(_ pins: [String: [String]], anchors: [PEMCertificates] = [], includingSystemRoots: Bool = true) throws {
            var roots = anchors.flatMap(\.certificates)
            if includingSystemRoots { roots += Self.systemRoots() }
            let keyed = roots.compactMap { root in (try? AsyncHTTPClientTransport.CertificatePin(certificate: root)).map { ($0.pin, root) } }
            rules = try pins.sorted { $0.key < $1.key }.map { pattern, hostPins in
                let pattern = pattern.lowercased()
                guard Self.isValidPattern(pattern) else {
                    throw HTTPError.invalidConfiguration(
                        "'\(pattern)' is not a host pattern: give a host name, *.example.com or **.example.com")
                }
                for pin in hostPins where !Self.isWellFormed(pin) {
                    throw HTTPError.invalidConfiguration(
                        "'\(pin)' is not a pin: write sha256/ then the base64 of the SHA-256 of a certificate's public key (jewz pins prints them)")
                }
                let anchors = keyed.filter { hostPins.contains($0.0) }.map(\.1)
                guard !anchors.isEmpty else {
                    throw HTTPError.invalidConfiguration(
                        "no pin of \(pattern) is the key of a root known here; pin a root's key (jewz pins shows the chain's), and give the root's certificate as an anchor unless the system trusts it. A leaf or intermediate key cannot be enforced: AsyncHTTPClient 1.37 lets no one check a server's chain below its roots (the change it needs is in Tools/Upstream/async-http-client of Jewzruxin's repository)")
                }
                return Rule(pattern: pattern, pins: hostPins, anchors: anchors)
            }
        }

        /// The pinned host patterns, lowercased.
        package var hostPatterns: [String] { rules.map(\.pattern) }

        /// Whether `host` matches a pinned pattern.
        package func isPinned(host: String) -> Bool { !rules(forHost: host).isEmpty }

        /// The rules whose pattern `host` matches.
        func rules(forHost host: String) -> [Rule] {
            let host = host.lowercased()
            return rules.filter { Self.matches(host, $0.pattern) }
        }

        /// Whether `host` (lowercased) matches `pattern` as OkHttp's CertificatePinner does.
        static func matches(_ host: String, _ pattern: String) -> Bool {
            if pattern.hasPrefix("**.") {
                let suffix = pattern.dropFirst(3)
                return host == suffix || host.hasSuffix("." + suffix)
            }
            if pattern.hasPrefix("*.") {
                let suffix = pattern.dropFirst(2)
                guard host.hasSuffix("." + suffix) else { return false }
                let label = host.dropLast(suffix.count + 1)
                return !label.isEmpty && !label.contains(".")
            }
            return host == pattern
        }

        private static func isValidPattern(_ pattern: String) -> Bool {
            let name = pattern.hasPrefix("**.") ? pattern.dropFirst(3) : pattern.hasPrefix("*.") ? pattern.dropFirst(2) : pattern[...]
            let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-.:[]")
            return !name.isEmpty && name.allSatisfy(allowed.contains) && !name.hasPrefix(".") && !name.hasSuffix(".")
        }

        private static func isWellFormed(_ pin: String) -> Bool {
            guard pin.hasPrefix("sha256/"), let digest = Data(base64Encoded: String(pin.dropFirst(7))) else { return false }
            return digest.count == 32  // a SHA-256 digest
        }

        /// The roots the system trusts, from the first CA bundle found where Linux distributions
        /// keep it (Debian, Fedora, openSUSE, Alpine); none elsewhere.
        private static func systemRoots() -> [NIOSSLCertificate] {
            let bundles = [
                "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/ca-bundle.pem",
                "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", "/etc/ssl/cert.pem",
            ]
            for bundle in bundles where FileManager.default.isReadableFile(atPath: bundle) {
                if let roots = try? NIOSSLCertificate.fromPEMFile(bundle), !roots.isEmpty { return roots }
            }
            return []
        }
    }
}
