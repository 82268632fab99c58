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
