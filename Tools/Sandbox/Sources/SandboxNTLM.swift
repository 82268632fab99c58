import Foundation
import JewzAuth
import JewzLocking

/// `/ntlm-auth/USER/PASSWORD?proxy=1&garble=1`: an NTLMv2 acceptor (MS-NLMP) that, as IIS does, keeps
/// each handshake with its connection: the negotiate, the authenticate and the request must
/// come over one. Offers `NTLM` and `Basic` (refusing Basic), so a client that answers the
/// strongest scheme shows it. Checks the NTLMv2 proof, and the MIC when the answer says it has
/// one; never accepts LM or NTLMv1. `proxy=1` challenges as a proxy (407,
/// `Proxy-Authenticate`); `garble=1` answers the negotiate with a token that is not a
/// CHALLENGE_MESSAGE.
final class SandboxNTLM: Sendable {
    private struct Handshake {
        let negotiate: [UInt8]
        let challenge: [UInt8]
        let serverChallenge: [UInt8]
    }

    /// The open handshakes by connection; a bounded table, as clients may leave them open.
    private let handshakes = Mutex<[Int: Handshake]>([:])
    private let completed = Mutex(0)

    /// How many handshakes have ended in an accepted answer.
    var completedHandshakes: Int { completed.withLock { $0 } }

    func respond(to request: SandboxRequest, segments: [String], query: [URLQueryItem]) -> SandboxResponse {
        let decoded = segments.map { $0.removingPercentEncoding ?? $0 }
        let (user, password) = (decoded[1], decoded[2])
        let proxy = query.contains { $0.name == "proxy" && $0.value == "1" }
        let field = proxy ? "Proxy-Authorization" : "Authorization"
        let challenge = { (token: [UInt8]?) -> SandboxResponse in
            let name = proxy ? "Proxy-Authenticate" : "WWW-Authenticate"
            var headers = [(name, "NTLM" + (token.map { " " + Data($0).base64EncodedString() } ?? ""))]
            if token == nil { headers.append((name, "Basic realm=\"sandbox-ntlm\"")) }
            return SandboxResponse(status: proxy ? 407 : 401, headers: headers)
        }
        guard let sent = request.header(field), sent.hasPrefix("NTLM "), let data = Data(base64Encoded: String(sent.dropFirst(5))),
            data.count >= 12
        else { return challenge(nil) }
        let message = Array(data)
        switch message.littleEndianUInt32(at: 8) {
        case 1 where query.contains { $0.name == "garble" && $0.value == "1" }:
            return challenge(Array("not an NTLM challenge".utf8))
        case 1:
            let handshake = Self.challenge(answering: message)
            handshakes.withLock { table in
                if table.count >= 10_000 { table.removeAll() }
                table[request.connection] = handshake
            }
            return challenge(handshake.challenge)
        case 3:
            guard let handshake = handshakes.withLock({ $0.removeValue(forKey: request.connection) }),
                let proof = Self.verify(message, handshake: handshake, user: user, password: password)
            else { return challenge(nil) }
            completed.withLock { $0 += 1 }
            let body = #"{"authenticated":true,"user":"\#(proof.user)","domain":"\#(proof.domain)","mic":\#(proof.hasMIC)}"#
            return SandboxResponse(status: 200, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
        default:
            return challenge(nil)
        }
    }

    /// A CHALLENGE_MESSAGE for `negotiate`: Unicode, a random server challenge, target
    /// information naming the Sandbox and carrying a timestamp (so the answer needs a MIC).
    private static func challenge(answering negotiate: [UInt8]) -> Handshake {
        let serverChallenge = (0..<8).map { _ in UInt8.random(in: .min ... .max) }
        let timestamp = NTLMAuthentication.fileTime(Date())
        let info = NTLMAttribute.serialize([
            NTLMAttribute(id: 2, value: "SANDBOX".utf16LittleEndian),
            NTLMAttribute(id: 1, value: "SANDBOX".utf16LittleEndian),
            NTLMAttribute(id: NTLMAttribute.timestamp, value: timestamp),
        ])
        var bytes = NTLMFlags.signature + [2, 0, 0, 0]
        bytes += [0, 0, 0, 0, 56, 0, 0, 0]  // no target name
        bytes.appendLittleEndian(NTLMFlags.requested.union(.targetInfo).rawValue)
        bytes += serverChallenge + [UInt8](repeating: 0, count: 8)
        bytes.appendLittleEndian(UInt16(info.count))
        bytes.appendLittleEndian(UInt16(info.count))
        bytes.appendLittleEndian(UInt32(56))
        bytes += [10, 0, 0, 0, 0, 0, 0, 15]  // version
        return Handshake(negotiate: negotiate, challenge: bytes + info, serverChallenge: serverChallenge)
    }

    /// The user and domain of an AUTHENTICATE_MESSAGE whose NTLMv2 proof (and MIC, when it
    /// says it carries one) matches `password`; `nil` for any other.
    private static func verify(
        _ message: [UInt8], handshake: Handshake, user: String, password: String
    ) -> (user: String, domain: String, hasMIC: Bool)? {
        guard message.count >= 88 else { return nil }
        func field(at offset: Int) -> [UInt8]? { message.ntlmPayload(fieldAt: offset).map(Array.init) }
        guard let nt = field(at: 20), nt.count > 48, let domainBytes = field(at: 28), let userBytes = field(at: 36),
            let sentUser = String(bytes: userBytes, encoding: .utf16LittleEndian),
            let domain = String(bytes: domainBytes, encoding: .utf16LittleEndian),
            sentUser.lowercased() == user.lowercased()
        else { return nil }
        let key = NTLMv2Response.responseKey(user: sentUser, password: password, domain: domain)
        let proof = NTLMv2Response.hmacMD5(key: key, handshake.serverChallenge + nt.dropFirst(16))
        guard Array(nt.prefix(16)) == proof, let attributes = try? NTLMAttribute.parse(nt[44..<(nt.count - 4)]) else { return nil }
        let flags = attributes.first { $0.id == NTLMAttribute.flags }?.value ?? []
        let hasMIC = flags.count == 4 && flags[0] & 0x2 != 0
        if hasMIC {
            var unsigned = message
            unsigned.replaceSubrange(72..<88, with: [UInt8](repeating: 0, count: 16))
            let sessionKey = NTLMv2Response.hmacMD5(key: key, proof)
            let mic = NTLMv2Response.hmacMD5(key: sessionKey, handshake.negotiate + handshake.challenge + unsigned)
            guard Array(message[72..<88]) == mic else { return nil }
        }
        return (sentUser, domain, hasMIC)
    }
}
