/// NTLM's NegotiateFlags (MS-NLMP §2.2.2.5) that NTLMv2 over HTTP uses.
package struct NTLMFlags: OptionSet, Sendable {
    package let rawValue: UInt32

    package init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    package static let unicode = NTLMFlags(rawValue: 0x0000_0001)
    package static let requestTarget = NTLMFlags(rawValue: 0x0000_0004)
    package static let ntlm = NTLMFlags(rawValue: 0x0000_0200)
    package static let alwaysSign = NTLMFlags(rawValue: 0x0000_8000)
    package static let extendedSessionSecurity = NTLMFlags(rawValue: 0x0008_0000)
    package static let targetInfo = NTLMFlags(rawValue: 0x0080_0000)
    package static let keyExchange = NTLMFlags(rawValue: 0x4000_0000)
    package static let bits128 = NTLMFlags(rawValue: 0x2000_0000)
    package static let bits56 = NTLMFlags(rawValue: 0x8000_0000)

    /// What the NEGOTIATE_MESSAGE asks: Unicode strings, NTLMv2's extended session security,
    /// and no key exchange (HTTP authentication signs and seals nothing).
    package static let requested: NTLMFlags = [.unicode, .requestTarget, .ntlm, .alwaysSign, .extendedSessionSecurity, .bits128, .bits56]

    /// Every NTLM message's first 8 bytes.
    package static let signature: [UInt8] = Array("NTLMSSP".utf8) + [0]
}
