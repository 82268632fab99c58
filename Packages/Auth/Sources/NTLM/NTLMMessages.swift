/// The client's two NTLM messages (MS-NLMP §2.2.1): the NEGOTIATE_MESSAGE that opens the
/// handshake and the AUTHENTICATE_MESSAGE that answers the server's challenge.
enum NTLMMessages {
    /// The NEGOTIATE_MESSAGE: the flags asked for, no domain or workstation supplied.
    static let negotiate: [UInt8] = {
        var bytes = NTLMFlags.signature
        bytes.appendLittleEndian(UInt32(1))
        bytes.appendLittleEndian(NTLMFlags.requested.rawValue)
        bytes += [UInt8](repeating: 0, count: 16)
        return bytes
    }()

    /// The AUTHENTICATE_MESSAGE answering `challenge` with NTLMv2 (never LM or NTLMv1).
    ///
    /// When the challenge carries a timestamp, the answer uses it, says in its target
    /// information that it carries a MIC, sends an empty LMv2 response, and signs the three
    /// messages with the MIC (MS-NLMP §3.1.5.1.2).
    ///
    /// - Parameters:
    ///   - negotiate: the NEGOTIATE_MESSAGE that opened this handshake.
    ///   - clientChallenge: 8 random bytes.
    ///   - now: a FILETIME for a challenge with no timestamp.
    static func authenticate(
        answering challenge: NTLMChallengeMessage, negotiate: [UInt8], user: String, domain: String,
        responseKey: [UInt8], clientChallenge: [UInt8], now: [UInt8]
    ) -> [UInt8] {
        var attributes = challenge.targetInfo
        let signed = challenge.timestamp != nil
        if signed {
            let micPresent: UInt32 = 0x2
            let index = attributes.firstIndex { $0.id == NTLMAttribute.flags && $0.value.count == 4 }
            var value: [UInt8] = []
            value.appendLittleEndian((index.map { attributes[$0].value.littleEndianUInt32(at: 0) } ?? 0) | micPresent)
            let flags = NTLMAttribute(id: NTLMAttribute.flags, value: value)
            if let index { attributes[index] = flags } else { attributes.append(flags) }
        }
        let response = NTLMv2Response(
            key: responseKey, serverChallenge: challenge.serverChallenge, clientChallenge: clientChallenge,
            time: challenge.timestamp ?? now, targetInfo: NTLMAttribute.serialize(attributes))
        let flags = challenge.flags.subtracting(.keyExchange)

        // Header (signature, type, six payload fields, flags, version, MIC), then the payloads.
        let headerLength = 88
        let payloads: [[UInt8]] = [
            signed ? [UInt8](repeating: 0, count: 24) : response.lmResponse,
            response.ntResponse, domain.utf16LittleEndian, user.utf16LittleEndian, [], [],
        ]
        var message = NTLMFlags.signature
        message.appendLittleEndian(UInt32(3))
        var offset = headerLength
        for payload in payloads {
            message.appendLittleEndian(UInt16(truncatingIfNeeded: payload.count))
            message.appendLittleEndian(UInt16(truncatingIfNeeded: payload.count))
            message.appendLittleEndian(UInt32(offset))
            offset += payload.count
        }
        message.appendLittleEndian(flags.rawValue)
        message += version
        let micOffset = message.count
        message += [UInt8](repeating: 0, count: 16)
        for payload in payloads { message += payload }
        if signed {
            let mic = NTLMv2Response.hmacMD5(key: response.sessionBaseKey, negotiate + challenge.bytes + message)
            message.replaceSubrange(micOffset..<micOffset + 16, with: mic)
        }
        return message
    }

    /// The VERSION field: Windows 10, NTLMSSP revision 15. Informational only.
    private static let version: [UInt8] = [10, 0, 0, 0, 0, 0, 0, 15]
}
