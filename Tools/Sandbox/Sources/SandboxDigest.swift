import Crypto
import Foundation
import JewzLocking

/// `/digest-auth/QOP/USER/PASSWORD/ALGORITHM`: an RFC 7616 server, strict where clients go
/// wrong. QOP is `auth`, `auth-int` or `none`; ALGORITHM `MD5`, `MD5-sess`, `SHA-256` or
/// `SHA-256-sess`. Query: `stale-after=N` (a nonce answers N requests, then a 401 with
/// `stale=true`), `next-nonce=1` (`Authentication-Info` with `nextnonce` and `rspauth`),
/// `userhash=1`. A nonce count used twice for one nonce is a replay and refused.
final class SandboxDigest: Sendable {
    static let realm = "sandbox@jewzruxin"

    private struct Nonce {
        var counts: [Int] = []
    }

    private let nonces = Mutex<[String: Nonce]>([:])

    /// The nonce counts each nonce was used with, in the order requests arrived.
    var countsByNonce: [String: [Int]] { nonces.withLock { $0.mapValues(\.counts) } }

    func respond(to request: SandboxRequest, segments: [String], query: [URLQueryItem]) -> SandboxResponse {
        let value: (String) -> String? = { name in query.first { $0.name == name }?.value }
        let decoded = segments.map { $0.removingPercentEncoding ?? $0 }
        let (qop, user, password, algorithm) = (decoded[1], decoded[2], decoded[3], decoded[4])
        guard ["auth", "auth-int", "none"].contains(qop), let hashBytes = Self.hashBytes(algorithm) else {
            return .text("qop must be auth, auth-int or none; algorithm MD5, MD5-sess, SHA-256 or SHA-256-sess", status: 400)
        }
        guard !(qop == "none" && algorithm.lowercased().hasSuffix("-sess")) else {
            return .text("a -sess algorithm needs a qop (RFC 7616)", status: 400)
        }
        let hash = { (text: String) in hashBytes(Data(text.utf8)) }
        let userhash = value("userhash") == "1"
        let challenge = { (stale: Bool) -> SandboxResponse in
            let nonce = self.issueNonce()
            var fields = ["realm=\"\(Self.realm)\"", "nonce=\"\(nonce)\"", "opaque=\"sandbox\"", "algorithm=\(algorithm)"]
            if qop != "none" { fields.append("qop=\"\(qop)\"") }
            if userhash { fields.append("userhash=true") }
            if stale { fields.append("stale=true") }
            var headers = [("WWW-Authenticate", "Digest " + fields.joined(separator: ", "))]
            // Offered beside Digest, as servers that take either do; answering it fails here.
            if value("ntlm") == "1" { headers.append(("WWW-Authenticate", "NTLM")) }
            return SandboxResponse(status: 401, headers: headers)
        }
        guard let header = request.header("Authorization"), header.lowercased().hasPrefix("digest ") else { return challenge(false) }
        let fields = Self.parameters(String(header.dropFirst(7)))
        guard let nonce = fields["nonce"], let uri = fields["uri"], let answer = fields["response"], let name = fields["username"] else {
            return challenge(false)
        }
        let expectedName = userhash ? hash("\(user):\(Self.realm)") : user
        let nc = fields["nc"] ?? "", cnonce = fields["cnonce"] ?? "", sentQOP = fields["qop"]
        guard name == expectedName, uri == request.uri, sentQOP == (qop == "none" ? nil : qop) else { return challenge(false) }
        var ha1 = hash("\(user):\(Self.realm):\(password)")
        if algorithm.lowercased().hasSuffix("-sess") { ha1 = hash("\(ha1):\(nonce):\(cnonce)") }
        let bodyHash = hashBytes(request.body)
        let ha2 = { (method: String) in hash(qop == "auth-int" ? "\(method):\(uri):\(bodyHash)" : "\(method):\(uri)") }
        let expected = { (method: String) in
            qop == "none" ? hash("\(ha1):\(nonce):\(ha2(method))") : hash("\(ha1):\(nonce):\(nc):\(cnonce):\(qop):\(ha2(method))")
        }
        guard answer.lowercased() == expected(request.method) else { return challenge(false) }
        let count = qop == "none" ? 0 : Int(nc, radix: 16) ?? -1
        let staleAfter = value("stale-after").flatMap(Int.init) ?? Int.max
        enum Verdict { case unknown, replay, stale, fine(Int) }
        let verdict: Verdict = nonces.withLock { nonces in
            guard var entry = nonces[nonce] else { return .unknown }
            if count > 0, entry.counts.contains(count) { return .replay }
            guard entry.counts.count < staleAfter else { return .stale }
            entry.counts.append(count)
            nonces[nonce] = entry
            return .fine(entry.counts.count)
        }
        switch verdict {
        case .unknown, .replay: return challenge(false)
        case .stale: return challenge(true)
        case .fine(let uses):
            var response = SandboxResponse(
                status: 200, headers: [("Content-Type", "application/json")],
                body: Data(#"{"authenticated":true,"user":"\#(user)","nc":\#(count),"uses":\#(uses)}"#.utf8))
            if value("next-nonce") == "1" {
                let info = "nextnonce=\"\(issueNonce())\", qop=\(qop), rspauth=\"\(expected(""))\", cnonce=\"\(cnonce)\", nc=\(nc)"
                response.headers.append(("Authentication-Info", info))
            }
            return response
        }
    }

    private func issueNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let nonce = String(format: "%016llx%016llx", generator.next() as UInt64, generator.next() as UInt64)
        nonces.withLock { $0[nonce] = Nonce() }
        return nonce
    }

    private static func hashBytes(_ algorithm: String) -> (@Sendable (Data) -> String)? {
        switch algorithm.lowercased() {
        case "md5", "md5-sess": { Insecure.MD5.hash(data: $0).map { String(format: "%02x", $0) }.joined() }
        case "sha-256", "sha-256-sess": { SHA256.hash(data: $0).map { String(format: "%02x", $0) }.joined() }
        default: nil
        }
    }

    /// The parameters of a credentials field: `name=value` or `name="quoted \" value"`, by
    /// comma; the server's own reading, independent of the client's.
    static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        var name = "", value = "", inValue = false, quoted = false, escaped = false
        func flush() {
            let key = name.trimmingCharacters(in: .whitespaces).lowercased()
            if !key.isEmpty, result[key] == nil { result[key] = quoted ? value : value.trimmingCharacters(in: .whitespaces) }
            (name, value, inValue, quoted) = ("", "", false, false)
        }
        var insideQuotes = false
        for character in text {
            if escaped { value.append(character); escaped = false; continue }
            switch character {
            case "\\" where insideQuotes: escaped = true
            case "\"" where inValue: insideQuotes.toggle(); quoted = true
            case "," where !insideQuotes: flush()
            case "=" where !inValue: inValue = true
            default: if inValue { value.append(character) } else { name.append(character) }
            }
        }
        flush()
        return result
    }
}
