import Crypto
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
        var text = text
        return text.withUTF8 { digest(bytes: UnsafeRawBufferPointer($0)) }
    }

    func digest(bytes: some DataProtocol) -> String {
        switch hash {
        case .md5: Insecure.MD5.hash(data: bytes).hex
        case .sha256: SHA256.hash(data: bytes).hex
        }
    }

    /// A hasher for a body read in pieces (`auth-int` over a file).
    func digest(chunks: some Sequence<Data>) -> String {
        switch hash {
        case .md5:
            var hasher = Insecure.MD5()
            for chunk in chunks { hasher.update(data: chunk) }
            return hasher.finalize().hex
        case .sha256:
            var hasher = SHA256()
            for chunk in chunks { hasher.update(data: chunk) }
            return hasher.finalize().hex
        }
    }
}

extension Sequence<UInt8> {
    /// Lowercase hex, written byte by byte: `String(format:)` per byte cost more than the
    /// hashing itself on every preemptive Digest request.
    var hex: String {
        let bytes = Array(self)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = hexDigit(byte >> 4)
                buffer[2 * index + 1] = hexDigit(byte & 0x0F)
            }
            return bytes.count * 2
        }
    }
}

private func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
}
