import Crypto

/// NTLMv2's proof of the password for one challenge (MS-NLMP §3.3.2): the NT response, the
/// LMv2 response and the session base key that keys the MIC.
package struct NTLMv2Response: Sendable {
    package let ntResponse: [UInt8]
    package let lmResponse: [UInt8]
    package let sessionBaseKey: [UInt8]

    /// NTOWFv2: the key both responses are made with, from the password's MD4 hash and the
    /// upper-cased user name with the domain, in UTF-16LE.
    package static func responseKey(user: String, password: String, domain: String) -> [UInt8] {
        let passwordHash = MD4.hash(password.utf16LittleEndian)
        return hmacMD5(key: passwordHash, (user.uppercased() + domain).utf16LittleEndian)
    }

    /// - Parameters:
    ///   - key: ``responseKey(user:password:domain:)``.
    ///   - time: a FILETIME, 8 bytes little-endian: the challenge's timestamp, else now.
    ///   - targetInfo: the serialized target information the answer carries.
    package init(key: [UInt8], serverChallenge: [UInt8], clientChallenge: [UInt8], time: [UInt8], targetInfo: [UInt8]) {
        let temp: [UInt8] = [1, 1] + [UInt8](repeating: 0, count: 6) + time + clientChallenge
            + [0, 0, 0, 0] + targetInfo + [0, 0, 0, 0]
        let proof = Self.hmacMD5(key: key, serverChallenge + temp)
        ntResponse = proof + temp
        lmResponse = Self.hmacMD5(key: key, serverChallenge + clientChallenge) + clientChallenge
        sessionBaseKey = Self.hmacMD5(key: key, proof)
    }

    package static func hmacMD5(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        Array(HMAC<Insecure.MD5>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }
}

extension String {
    /// The string in UTF-16, little-endian: how NTLM writes text once Unicode is agreed.
    package var utf16LittleEndian: [UInt8] {
        utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }
}
