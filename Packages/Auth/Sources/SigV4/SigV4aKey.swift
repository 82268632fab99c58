import Crypto
import Foundation

/// The ECDSA P-256 key Signature Version 4a signs with, derived from an access key as AWS
/// derives it: NIST SP 800-108's HMAC-SHA256 counter mode over the key's identifier, the
/// result taken as the private scalar when it is below the curve's order less one (else the
/// counter moves on), plus one.
package enum SigV4aKey {
    /// The order of P-256's group, less two, big-endian.
    private static let orderMinusTwo: [UInt8] = [
        0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x4F,
    ]

    /// The key for `credentials`; `nil` only if no counter value gives a scalar in range, which
    /// happens with a probability of about 2^-8000.
    package static func derive(from credentials: AWSCredentials) -> P256.Signing.PrivateKey? {
        let secret = SymmetricKey(data: Data("AWS4A\(credentials.secretAccessKey)".utf8))
        for counter in UInt8(1)...254 {
            var input: [UInt8] = [0, 0, 0, 1]
            input += Array("AWS4-ECDSA-P256-SHA256".utf8) + [0]
            input += Array(credentials.accessKeyID.utf8) + [counter]
            input += [0, 0, 1, 0]
            let candidate = Array(HMAC<SHA256>.authenticationCode(for: input, using: secret))
            guard candidate.lexicographicallyPrecedes(orderMinusTwo) || candidate == orderMinusTwo else { continue }
            return try? P256.Signing.PrivateKey(rawRepresentation: addingOne(to: candidate))
        }
        return nil
    }

    /// `bytes + 1`, big-endian.
    private static func addingOne(to bytes: [UInt8]) -> [UInt8] {
        var result = bytes
        for index in result.indices.reversed() {
            let (sum, overflow) = result[index].addingReportingOverflow(1)
            result[index] = sum
            if !overflow { break }
        }
        return result
    }
}
