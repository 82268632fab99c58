import Crypto
import Foundation

/// A running hash of a Digest algorithm, fed piece by piece and read out as lowercase hex.
///
/// Preemptive Digest hashes a few short strings per request; feeding their pieces here rather
/// than hashing interpolated strings, and keeping a hasher already fed with the part every
/// request of a space shares, is what keeps it near the cost of Basic.
struct DigestHasher: Sendable {
    private enum State: Sendable {
        case md5(Insecure.MD5)
        case sha256(SHA256)
    }

    private var state: State

    init(_ hash: DigestAlgorithm.Hash) {
        switch hash {
        case .md5: state = .md5(Insecure.MD5())
        case .sha256: state = .sha256(SHA256())
        }
    }

    mutating func update(bytes: UnsafeRawBufferPointer) {
        switch state {
        case .md5(var hasher):
            hasher.update(bufferPointer: bytes)
            state = .md5(hasher)
        case .sha256(var hasher):
            hasher.update(bufferPointer: bytes)
            state = .sha256(hasher)
        }
    }

    mutating func update(_ text: Substring) {
        var text = text
        text.withUTF8 { update(bytes: UnsafeRawBufferPointer($0)) }
    }

    mutating func update(_ text: String) {
        update(Substring(text))
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update(bytes: $0) }
    }

    mutating func update(data: some DataProtocol) {
        for region in data.regions {
            region.withUnsafeBytes { update(bytes: $0) }
        }
    }

    /// Appends the digest in lowercase hex to `bytes`.
    func appendHex(to bytes: inout [UInt8]) {
        switch state {
        case .md5(let hasher): hasher.finalize().withUnsafeBytes { appendHexDigits(of: $0, to: &bytes) }
        case .sha256(let hasher): hasher.finalize().withUnsafeBytes { appendHexDigits(of: $0, to: &bytes) }
        }
    }

    /// The digest in lowercase hex.
    var hex: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        appendHex(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Appends `source` as lowercase hex, two digits a byte, written in place: `String(format:)`
/// per byte cost more than the hashing itself on every preemptive Digest request.
func appendHexDigits(of source: UnsafeRawBufferPointer, to bytes: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: source.count * 2) { digits in
        for (index, byte) in source.enumerated() {
            digits[2 * index] = hexDigit(byte >> 4)
            digits[2 * index + 1] = hexDigit(byte & 0x0F)
        }
        bytes.append(contentsOf: digits)
    }
}

private func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
}
