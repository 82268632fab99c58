import Foundation
import JewzHTTPCore
import JewzTestSupport
import Testing

@testable import JewzAuth

/// MD4 against RFC 1320's test suite, NTLMv2 against MS-NLMP §4.2.4's worked example, and the
/// AUTHENTICATE_MESSAGE's layout and MIC; hostile challenges are refused with a typed error.
@Suite struct NTLMVectorTests {
    @Test func md4MatchesRFC1320sTestSuite() {
        let suite: [(String, String)] = [
            ("", "31d6cfe0d16ae931b73c59d7e0c089c0"),
            ("a", "bde52cb31de33e46245e05fbdbd6fb24"),
            ("abc", "a448017aaf21d8525fc10ae87aa6729d"),
            ("message digest", "d9130a8164549fe818874806e1c7014b"),
            ("abcdefghijklmnopqrstuvwxyz", "d79e1c308aa5bbcdeea8ed63df412da9"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "043f8582f241db351ce627e153e7f0e4"),
            (String(repeating: "1234567890", count: 8), "e33b4ddc9c38f2199c3e7b164fcc0536"),
        ]
        #expect(suite.map { hex(MD4.hash(Array($0.0.utf8))) } == suite.map(\.1))
    }

    /// MS-NLMP §4.2.4: user "User", domain "Domain", password "Password", server challenge
    /// 0123456789abcdef, client challenge aa×8, time zero, target info naming Domain and Server.
    @Test func ntlmv2MatchesMSNLMPsExample() {
        let key = NTLMv2Response.responseKey(user: "User", password: "Password", domain: "Domain")
        #expect(hex(key) == "0c868a403bfd7a93a3001ef22ef02e3f")
        let response = NTLMv2Response(
            key: key, serverChallenge: bytes("0123456789abcdef"), clientChallenge: [UInt8](repeating: 0xaa, count: 8),
            time: [UInt8](repeating: 0, count: 8), targetInfo: Self.exampleTargetInfo)
        #expect(hex(Array(response.ntResponse.prefix(16))) == "68cd0ab851e51c96aabc927bebef6a1c")
        #expect(hex(response.sessionBaseKey) == "8de40ccadbc14a82f15cb0ad0de95ca3")
        #expect(hex(response.lmResponse) == "86c35097ac9cec102554764a57cccc19aaaaaaaaaaaaaaaa")
        let temp = "0101000000000000" + "0000000000000000" + "aaaaaaaaaaaaaaaa" + "00000000" + hex(Self.exampleTargetInfo) + "00000000"
        #expect(hex(Array(response.ntResponse.dropFirst(16))) == temp)
    }

    @Test func anAnswerToATimestampedChallengeCarriesAVerifiableMICAndNoLMResponse() throws {
        let timestamp: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let challenge = try NTLMChallengeMessage(Self.challenge(targetInfo: [
            NTLMAttribute(id: 2, value: "Domain".utf16LittleEndian), NTLMAttribute(id: NTLMAttribute.timestamp, value: timestamp),
        ]))
        let key = NTLMv2Response.responseKey(user: "ada", password: "s3cret", domain: "CORP")
        let message = NTLMMessages.authenticate(
            answering: challenge, negotiate: NTLMMessages.negotiate, user: "ada", domain: "CORP", responseKey: key,
            clientChallenge: [UInt8](repeating: 7, count: 8), now: [UInt8](repeating: 0, count: 8))

        func field(at offset: Int) -> [UInt8]? { message.ntlmPayload(fieldAt: offset).map(Array.init) }
        #expect(Array(message.prefix(12)) == NTLMFlags.signature + [3, 0, 0, 0])
        #expect(field(at: 12) == [UInt8](repeating: 0, count: 24))
        #expect(field(at: 28) == "CORP".utf16LittleEndian)
        #expect(field(at: 36) == "ada".utf16LittleEndian)
        let nt = try #require(field(at: 20))
        // The NTLMv2 blob: the challenge's timestamp, the client challenge, and the target
        // information with MsvAvFlags saying a MIC is present.
        #expect(Array(nt[24..<32]) == timestamp)
        let attributes = try NTLMAttribute.parse(nt[44..<(nt.count - 4)])
        #expect(attributes.first { $0.id == NTLMAttribute.flags }?.value == [2, 0, 0, 0])
        let proof = NTLMv2Response.hmacMD5(key: key, challenge.serverChallenge + nt.dropFirst(16))
        #expect(Array(nt.prefix(16)) == proof)
        var unsigned = message
        unsigned.replaceSubrange(72..<88, with: [UInt8](repeating: 0, count: 16))
        let sessionKey = NTLMv2Response.hmacMD5(key: key, proof)
        let mic = NTLMv2Response.hmacMD5(key: sessionKey, NTLMMessages.negotiate + challenge.bytes + unsigned)
        #expect(Array(message[72..<88]) == mic)
    }

    @Test func malformedChallengesAreRefusedWithATypedError() {
        let valid = Self.challenge(targetInfo: [])
        var wrongType = valid
        wrongType[8] = 3
        var pastTheEnd = valid
        pastTheEnd[40] = 0xff  // target info longer than the message
        var oem = valid
        oem[20] = 0x02
        var badPair = Self.challenge(targetInfo: [NTLMAttribute(id: 2, value: [1, 2])])
        badPair[badPair.count - 8] = 0xff  // the pair's length runs past its end
        let cases = [[], Array(valid.prefix(47)), wrongType, pastTheEnd, oem, badPair]
        let outcomes = cases.map { bytes -> AuthError.Code? in
            do {
                _ = try NTLMChallengeMessage(bytes)
                return nil
            } catch let error as AuthError {
                return error.code
            } catch {
                return nil
            }
        }
        #expect(outcomes == Array(repeating: .invalidChallenge, count: cases.count))
    }

    /// Random target information behind a valid header: each read or refused, none crashing
    /// (and both outcomes met, so the bytes reach past the first check).
    @Test func randomChallengesNeverCrashTheReader() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("randomChallengesNeverCrashTheReader seed: \(seed)")
        var generator = SeededGenerator(seed: seed)
        var read = 0
        for _ in 0..<2_000 {
            var bytes = Array(Self.challenge(targetInfo: []).prefix(48))
            let length = Int.random(in: 0...80, using: &generator)
            bytes += (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // The target information field: its length at most a little past the bytes there.
            bytes[40] = UInt8(Int.random(in: 0...(length + 4), using: &generator))
            if (try? NTLMChallengeMessage(bytes)) != nil { read += 1 }
        }
        #expect(read > 0 && read < 2_000)
    }

    static let exampleTargetInfo = bytes("02000c0044006f006d00610069006e0001000c0053006500720076006500720000000000")

    /// A CHALLENGE_MESSAGE agreeing to Unicode, with server challenge 0123456789abcdef.
    static func challenge(targetInfo: [NTLMAttribute]) -> [UInt8] {
        let info = NTLMAttribute.serialize(targetInfo)
        var bytes = NTLMFlags.signature + [2, 0, 0, 0] + [0, 0, 0, 0, 48, 0, 0, 0]
        bytes.appendLittleEndian(NTLMFlags.requested.union(.targetInfo).rawValue)
        bytes += Self.bytes("0123456789abcdef") + [UInt8](repeating: 0, count: 8)
        bytes.appendLittleEndian(UInt16(info.count))
        bytes.appendLittleEndian(UInt16(info.count))
        bytes.appendLittleEndian(UInt32(48))
        return bytes + info
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return result
    }

    private func bytes(_ hex: String) -> [UInt8] { Self.bytes(hex) }
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
