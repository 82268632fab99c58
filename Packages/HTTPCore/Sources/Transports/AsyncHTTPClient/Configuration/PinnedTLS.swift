import NIOSSL

/// The TLS configurations pinned hosts are reached with: the transport's own, trusting only
/// the roots whose keys are pinned for the host (see
/// ``AsyncHTTPClientTransport/Configuration/CertificatePinning`` for why roots).
struct PinnedTLS: Sendable {
    let pinning: AsyncHTTPClientTransport.Configuration.CertificatePinning
    /// The transport's configuration, which unpinned hosts get.
    let base: TLSConfiguration

    /// The configuration for `host`, or `nil` when it is not pinned.
    func configuration(forHost host: String) -> TLSConfiguration? {
        let rules = pinning.rules(forHost: host)
        guard !rules.isEmpty else { return nil }
        var configuration = base
        configuration.trustRoots = .certificates(rules.flatMap(\.anchors))
        configuration.additionalTrustRoots = []
        if case .none = configuration.certificateVerification {
            configuration.certificateVerification = .fullVerification
        }
        return configuration
    }

    /// The pins that apply to `host`; empty when it is not pinned.
    func pins(forHost host: String) -> [String] {
        pinning.rules(forHost: host).flatMap(\.pins)
    }
}

extension AsyncHTTPClientTransport.Configuration.TLS {
    /// NIOSSL's configuration for a connection of HTTP/1.1 only to `host`, which the
    /// transport's pool does not make: a WebSocket's. A pinned host trusts only its anchors.
    package func nioConfiguration(http1OnlyTo host: String) -> TLSConfiguration {
        let base = nioConfiguration(allowsHTTP2: false)
        return pinning.flatMap { PinnedTLS(pinning: $0, base: base).configuration(forHost: host) } ?? base
    }

    /// The name to send in SNI for `host`, or `nil` for an address literal, which SNI does not carry.
    package static func serverName(for host: String) -> String? {
        host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
    }
}
