import Foundation

/// The hash algorithms of RFC 7616 that swift-crypto can compute: MD5 and SHA-256, each with
/// its `-sess` variant. SHA-512-256 (SHA-512 truncated, with its own initial values) is not in
/// swift-crypto, so a challenge offering only it is not answered.
struct DigestAlgorithm: Sendable, Hashable {
    enum Hash: Sendable, Hashable {
        case md5, sha256
    }

    let hash: Hash
    /// The `-sess` variant: HA1 also covers the nonce and cnonce.
    let isSession: Bool

    /// The algorithm a challenge names (`MD5` when it names none); `nil` when unsupported.
    init?(_ name: String?) {
        switch (name ?? "MD5").uppercased() {
        case "MD5": (hash, isSession) = (.md5, false)
        case "MD5-SESS": (hash, isSession) = (.md5, true)
        case "SHA-256": (hash, isSession) = (.sha256, false)
        case "SHA-256-SESS": (hash, isSession) = (.sha256, true)
        default: return nil
        }
    }

    var name: String {
        (hash == .md5 ? "MD5" : "SHA-256") + (isSession ? "-sess" : "")
    }

    /// Stronger first, when a server offers several.
    var strength: Int { hash == .sha256 ? 2 : 1 }

    /// The lowercase hex digest of `text`'s UTF-8.
    func digest(_ text: String) -> String {
        var hasher = DigestHasher(hash)
        hasher.update(text)
        return hasher.hex
    }

    func digest(bytes: some DataProtocol) -> String {
        var hasher = DigestHasher(hash)
        hasher.update(data: bytes)
        return hasher.hex
    }

    /// The digest of a body read in pieces (`auth-int` over a file).
    func digest(chunks: some Sequence<Data>) -> String {
        var hasher = DigestHasher(hash)
        for chunk in chunks { hasher.update(data: chunk) }
        return hasher.hex
    }
}
