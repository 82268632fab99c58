/// A server's CHALLENGE_MESSAGE (MS-NLMP §2.2.1.2), read from the token of a
/// `WWW-Authenticate: NTLM <token>` field: what an AUTHENTICATE_MESSAGE answers.
struct NTLMChallengeMessage: Sendable {
    /// The message as it came, which the MIC covers.
    let bytes: [UInt8]
    /// The flags the server agreed to.
    let flags: NTLMFlags
    /// The server's 8-byte nonce.
    let serverChallenge: [UInt8]
    /// The target information's attribute–value pairs, without the terminating `MsvAvEOL`.
    let targetInfo: [NTLMAttribute]

    /// Reads `bytes` as a CHALLENGE_MESSAGE.
    ///
    /// - Throws: ``AuthError/Code-swift.struct/invalidChallenge`` for a message that is not one or
    ///   whose fields point outside it, or that does not agree to Unicode strings.
    init(_ bytes: [UInt8]) throws(AuthError) {
        guard bytes.count >= 48, Array(bytes[0..<8]) == NTLMFlags.signature, bytes.littleEndianUInt32(at: 8) == 2 else {
            throw .invalidChallenge("it is not an NTLM CHALLENGE_MESSAGE")
        }
        self.bytes = bytes
        flags = NTLMFlags(rawValue: bytes.littleEndianUInt32(at: 20))
        guard flags.contains(.unicode) else { throw .invalidChallenge("the server does not agree to Unicode strings") }
        serverChallenge = Array(bytes[24..<32])
        guard let info = bytes.ntlmPayload(fieldAt: 40) else { throw .invalidChallenge("a field points past the end of the message") }
        targetInfo = try NTLMAttribute.parse(info)
    }

    /// The 8-byte FILETIME the server put in the target information (`MsvAvTimestamp`), if any:
    /// when present, the answer carries a MIC and no LMv2 response.
    var timestamp: [UInt8]? {
        targetInfo.first { $0.id == NTLMAttribute.timestamp && $0.value.count == 8 }?.value
    }

}

/// One AV_PAIR of NTLM's target information (MS-NLMP §2.2.2.1).
package struct NTLMAttribute: Sendable, Equatable {
    package static let endOfList: UInt16 = 0
    package static let flags: UInt16 = 6
    package static let timestamp: UInt16 = 7

    package let id: UInt16
    package let value: [UInt8]

    package init(id: UInt16, value: [UInt8]) {
        self.id = id
        self.value = value
    }

    /// The pairs of `bytes` up to `MsvAvEOL`.
    ///
    /// - Throws: ``AuthError/Code-swift.struct/invalidChallenge`` for a pair that runs past the end.
    package static func parse(_ bytes: ArraySlice<UInt8>) throws(AuthError) -> [NTLMAttribute] {
        let bytes = Array(bytes)
        var attributes: [NTLMAttribute] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let id = bytes.littleEndianUInt16(at: offset)
            let length = Int(bytes.littleEndianUInt16(at: offset + 2))
            if id == endOfList { return attributes }
            guard length <= bytes.count - offset - 4 else { throw .invalidChallenge("its target information runs past its end") }
            attributes.append(NTLMAttribute(id: id, value: Array(bytes[offset + 4..<offset + 4 + length])))
            offset += 4 + length
        }
        return attributes
    }

    /// `attributes` as target information, ended by `MsvAvEOL`.
    package static func serialize(_ attributes: [NTLMAttribute]) -> [UInt8] {
        var bytes: [UInt8] = []
        for attribute in attributes + [NTLMAttribute(id: endOfList, value: [])] {
            bytes.appendLittleEndian(attribute.id)
            bytes.appendLittleEndian(UInt16(attribute.value.count))
            bytes += attribute.value
        }
        return bytes
    }
}

extension [UInt8] {
    /// The bytes an NTLM message's payload field (length, allocated length, offset) at
    /// `offset` points to; `nil` when the field or its bytes run past the end.
    package func ntlmPayload(fieldAt offset: Int) -> ArraySlice<UInt8>? {
        guard offset >= 0, offset + 8 <= count else { return nil }
        let length = Int(littleEndianUInt16(at: offset))
        let start = Int(littleEndianUInt32(at: offset + 4))
        guard length == 0 || (start <= count && length <= count - start) else { return nil }
        return length == 0 ? [] : self[start..<start + length]
    }

    package func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    package func littleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndianUInt16(at: offset)) | UInt32(littleEndianUInt16(at: offset + 2)) << 16
    }

    package mutating func appendLittleEndian(_ value: some FixedWidthInteger) {
        for index in 0..<(value.bitWidth / 8) { append(UInt8(truncatingIfNeeded: value >> (index * 8))) }
    }
}
