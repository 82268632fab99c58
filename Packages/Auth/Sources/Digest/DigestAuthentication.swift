import Foundation
import JewzHTTPCore
import JewzLocking
import struct Synchronization.Atomic

/// Answers a `Digest` challenge (RFC 7616) from a server (401) or a proxy (407): MD5, SHA-256
/// and their `-sess` variants, qop `auth` and `auth-int`, `userhash`, `stale=true` answered
/// with the new nonce, `Authentication-Info`'s `nextnonce` used and its `rspauth` checked.
///
/// After the first answer, requests to the same origin at or below the challenged directory
/// are authorized without a challenge, each with the next nonce count: counts are taken under
/// a lock, so concurrent requests never share one and use them in order.
///
/// ```swift
/// try session.update { $0.authentications = [DigestAuthentication(username: "Mufasa", password: "Circle of Life")] }
/// ```
public final class DigestAuthentication: HTTPAuthentication {
    let username: String
    private let password: String
    /// The spaces answered so far, most recent first; few, so a list rather than a table.
    private let sessions = Mutex<[(scope: ProtectionScope, session: DigestSession)]>([])

    /// Credentials for Digest (RFC 7616), used once a server challenges.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// Sends Digest credentials without waiting for a challenge once the server has sent one for
    /// the request's scope, with the next nonce count.
    ///
    /// - Throws: for `auth-int`, ``AuthError/Code/bodyNotHashable`` for a streamed body,
    /// `HTTPError` with code `.unreadableBody` for a file that cannot be read.
    public func authorize(_ request: inout HTTPRequest) async throws {
        let url = request.url
        guard let session = sessions.withLock({ $0.first { $0.scope.contains(url) }?.session }),
            !request.headers.contains(session.kind.credentialsField)
        else { return }
        // Counts come from one atomic per nonce: unique, and in the order requests took them.
        let count = session.nonceCount.add(1, ordering: .relaxed).newValue
        request.headers[session.kind.credentialsField] = try credentials(for: request, session: session, nonceCount: count)
    }

    /// Answers a Digest challenge (a `stale` nonce again, once); `false` for another scheme, or a
    /// challenge answered already.
    ///
    /// - Throws: ``AuthError`` for a challenge that cannot be read or an algorithm not supported.
    public func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool {
        guard let kind = ChallengeKind(statusCode: challenge.statusCode) else { return false }
        let offers = kind.challenges(in: challenge).compactMap(DigestChallenge.init)
        guard let best = offers.max(by: { $0.algorithm.strength < $1.algorithm.strength }) else { return false }
        // The same nonce refused again, not as stale: the credentials are wrong; do not loop.
        let sent = request.headers[kind.credentialsField].flatMap { AuthenticationChallenge.parse($0).first }
        if sent?.scheme == "digest", sent?["nonce"] == best.nonce, !best.isStale { return false }
        let session = DigestSession(
            challenge: best, kind: kind, clientNoncePrefix: Self.makeClientNonce(),
            sentUsername: best.userhash ? best.algorithm.digest("\(username):\(best.realm)") : username,
            credentialsHash: best.algorithm.digest("\(username):\(best.realm):\(password)"))
        let count = session.nonceCount.add(1, ordering: .relaxed).newValue
        let scope = ProtectionScope(request.url)
        sessions.withLock { sessions in
            sessions.removeAll { $0.scope == scope }
            sessions.insert((scope, session), at: 0)
        }
        request.headers[kind.credentialsField] = try credentials(for: request, session: session, nonceCount: count)
        return true
    }

    /// Checks the server's `Authentication-Info` (its `rspauth`, when it proves itself) and takes
    /// its next nonce.
    public func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {
        for kind in [ChallengeKind.server, .proxy] {
            guard let info = response.headers[kind.infoField],
                let sent = request.headers[kind.credentialsField].flatMap({ AuthenticationChallenge.parse($0).first }),
                sent.scheme == "digest"
            else { continue }
            let fields = AuthenticationChallenge.parse("Digest " + info).first
            let session = sessions.withLock { sessions -> DigestSession? in
                guard let index = sessions.firstIndex(where: { $0.scope.contains(request.url) }) else { return nil }
                let current = sessions[index].session
                if let next = fields?["nextnonce"] { sessions[index].session = current.renewed(nonce: next) }
                return current
            }
            if let proof = fields?["rspauth"], let session, let expected = try? serverProof(for: request, sent: sent, session: session),
                proof.lowercased() != expected
            {
                throw AuthError.serverNotAuthenticated(url: request.url.absoluteString)
            }
        }
    }

    // MARK: Computing

    /// The `Authorization` (or `Proxy-Authorization`) value for `request`: the session's fixed
    /// fields, then the ones each request changes, written as bytes into one buffer.
    private func credentials(for request: HTTPRequest, session: DigestSession, nonceCount: Int) throws -> String {
        let challenge = session.challenge
        let nc = Self.nonceCountField(nonceCount)
        let cnonce = session.clientNoncePrefix + nc
        let uri = Self.target(of: request.url)
        let bodyHash = challenge.qop == "auth-int" ? try Self.bodyHash(of: request, algorithm: challenge.algorithm) : nil
        var field = session.fieldPrefix
        field.reserveCapacity(field.count + uri.utf8.count + 160)
        Self.appendEscaped(uri, to: &field)
        if challenge.qop != nil {
            field.append(contentsOf: #"", nc="#.utf8)
            field.append(contentsOf: nc)
            field.append(contentsOf: #", cnonce=""#.utf8)
            field.append(contentsOf: cnonce)
        }
        field.append(contentsOf: #"", response=""#.utf8)
        let start = session.sharedResponseStart
            ?? Self.responseStart(
                algorithm: challenge.algorithm, credentialsHash: session.credentialsHash, nonce: challenge.nonce, cnonce: cnonce)
        Self.appendResponse(
            continuing: start, hash: challenge.algorithm.hash, method: request.method.rawValue, uri: uri, nc: nc,
            cnonce: cnonce, qop: challenge.qop, bodyHash: bodyHash, to: &field)
        field.append(UInt8(ascii: "\""))
        return String(decoding: field, as: UTF8.self)
    }

    /// The `rspauth` a server that knows the password sends: the response with an empty method.
    private func serverProof(for request: HTTPRequest, sent: AuthenticationChallenge, session: DigestSession) throws -> String? {
        guard let nc = sent["nc"], let cnonce = sent["cnonce"], let nonce = sent["nonce"], let uri = sent["uri"] else { return nil }
        let algorithm = session.challenge.algorithm
        let qop = sent["qop"]
        let bodyHash = qop == "auth-int" ? try Self.bodyHash(of: request, algorithm: algorithm) : nil
        return Self.response(
            algorithm: algorithm, username: username, realm: session.challenge.realm, password: password, method: "",
            uri: uri, nonce: nonce, nc: nc, cnonce: cnonce, qop: qop, bodyHash: bodyHash)
    }

    /// RFC 7616 §3.4.1's `response`.
    static func response(
        algorithm: DigestAlgorithm, username: String, realm: String, password: String, method: String, uri: String,
        nonce: String, nc: String, cnonce: String, qop: String?, bodyHash: String?
    ) -> String {
        let start = responseStart(
            algorithm: algorithm, credentialsHash: algorithm.digest("\(username):\(realm):\(password)"), nonce: nonce,
            cnonce: Array(cnonce.utf8))
        var response: [UInt8] = []
        appendResponse(
            continuing: start, hash: algorithm.hash, method: method, uri: Substring(uri), nc: Array(nc.utf8),
            cnonce: Array(cnonce.utf8), qop: qop, bodyHash: bodyHash, to: &response)
        return String(decoding: response, as: UTF8.self)
    }

    /// A hasher of `response` fed with `HA1:nonce:`, which every request of a space shares
    /// unless the algorithm is a `-sess` one (its HA1 covers each request's cnonce).
    static func responseStart(algorithm: DigestAlgorithm, credentialsHash: String, nonce: String, cnonce: [UInt8]) -> DigestHasher {
        var ha1 = credentialsHash
        if algorithm.isSession {
            var sessionHash = DigestHasher(algorithm.hash)
            sessionHash.update("\(ha1):\(nonce):")
            sessionHash.update(cnonce)
            ha1 = sessionHash.hex
        }
        var hasher = DigestHasher(algorithm.hash)
        hasher.update("\(ha1):\(nonce):")
        return hasher
    }

    /// Appends `response` in hex: `start` fed on with `nc:cnonce:qop:` (when there is a qop)
    /// and the hex of HA2 = `H(method:uri)` (`H(method:uri:H(body))` under `auth-int`).
    static func appendResponse(
        continuing start: DigestHasher, hash: DigestAlgorithm.Hash, method: String, uri: Substring, nc: [UInt8],
        cnonce: [UInt8], qop: String?, bodyHash: String?, to bytes: inout [UInt8]
    ) {
        let colon = [UInt8(ascii: ":")]
        var ha2 = DigestHasher(hash)
        ha2.update(method)
        ha2.update(colon)
        ha2.update(uri)
        if qop == "auth-int" {
            ha2.update(colon)
            ha2.update(bodyHash ?? "")
        }
        var hasher = start
        if let qop {
            hasher.update(nc)
            hasher.update(colon)
            hasher.update(cnonce)
            hasher.update(colon)
            hasher.update(qop)
            hasher.update(colon)
        }
        var ha2Hex: [UInt8] = []
        ha2Hex.reserveCapacity(64)
        ha2.appendHex(to: &ha2Hex)
        hasher.update(ha2Hex)
        hasher.appendHex(to: &bytes)
    }

    /// The hash of the request body for `auth-int`: bytes in memory or a file, never a stream.
    private static func bodyHash(of request: HTTPRequest, algorithm: DigestAlgorithm) throws -> String {
        switch request.body {
        case nil: return algorithm.digest("")
        case .data(let data)?: return algorithm.digest(bytes: data)
        case .file(let url)?:
            guard let handle = try? FileHandle(forReadingFrom: url) else { throw HTTPError.unreadableBody(url.path) }
            defer { try? handle.close() }
            let chunks = sequence(state: handle) { handle in
                (try? handle.read(upToCount: 1 << 16)).flatMap { $0.isEmpty ? nil : $0 }
            }
            return algorithm.digest(chunks: chunks)
        default: throw AuthError.bodyNotHashable()
        }
    }

    /// The request target as sent: the path (at least `/`) and the query, percent-encoded,
    /// read off the URL's text (the parsed accessors cost more than the hashes).
    static func target(of url: URL) -> Substring {
        var text = url.absoluteString
        let (start, end) = text.withUTF8 { bytes -> (Int, Int) in
            let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
            // The authority starts after "://" (the first "//") and ends at the first "/" or "?".
            var index = 0
            while index + 1 < end, !(bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
            index += 2
            while index < end, bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: "?") { index += 1 }
            return (index, end)
        }
        guard start < end else { return "/" }
        let utf8 = text.utf8
        let target = text[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]
        return target.first == "?" ? Substring("/" + target) : target
    }

    /// Appends `value` as a quoted string.
    static func appendQuoted(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(Substring(value), to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `value` with `"` and `\` escaped, as inside a quoted string. Byte by byte is
    /// safe: neither byte occurs inside a multi-byte UTF-8 sequence.
    private static func appendEscaped(_ value: Substring, to bytes: inout [UInt8]) {
        var value = value
        value.withUTF8 { text in
            guard text.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return bytes.append(contentsOf: text)
            }
            for byte in text {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { bytes.append(UInt8(ascii: "\\")) }
                bytes.append(byte)
            }
        }
    }

    /// 16 random bytes in hex: a session's cnonces start with it and end with the nonce count,
    /// so each is unique and unpredictable without a system call per request.
    private static func makeClientNonce() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var nonce: [UInt8] = []
        for _ in 0..<2 {
            withUnsafeBytes(of: generator.next() as UInt64) { appendHexDigits(of: $0, to: &nonce) }
        }
        return nonce
    }

    /// `nc` as RFC 7616 writes it: 8 hex digits.
    static func nonceCountField(_ count: Int) -> [UInt8] {
        var field: [UInt8] = []
        field.reserveCapacity(8)
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: count).bigEndian) { appendHexDigits(of: $0, to: &field) }
        return field
    }
}

/// A Digest challenge the authentication can answer.
struct DigestChallenge: Sendable, Hashable {
    var realm: String
    var nonce: String
    var opaque: String?
    var algorithm: DigestAlgorithm
    /// `auth`, `auth-int`, or `nil` for RFC 2069's form without qop.
    var qop: String?
    var userhash: Bool
    var isStale: Bool

    init?(_ challenge: AuthenticationChallenge) {
        guard challenge.scheme == "digest", let nonce = challenge["nonce"], let algorithm = DigestAlgorithm(challenge["algorithm"]) else {
            return nil
        }
        let offered = challenge["qop"].map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() } }
        switch offered {
        case nil where algorithm.isSession: return nil  // -sess hashes a cnonce, which only a qop sends
        case nil: qop = nil
        case let options? where options.contains("auth"): qop = "auth"
        case let options? where options.contains("auth-int"): qop = "auth-int"
        default: return nil
        }
        realm = challenge.realm ?? ""
        self.nonce = nonce
        opaque = challenge["opaque"]
        self.algorithm = algorithm
        userhash = challenge["userhash"]?.lowercased() == "true"
        isStale = challenge["stale"]?.lowercased() == "true"
    }
}

/// What a protection space's last challenge said, and the nonce counts taken from it. A new
/// nonce makes a new session, so a request reads one without copying its fields under the lock.
final class DigestSession: Sendable {
    let challenge: DigestChallenge
    let kind: ChallengeKind
    /// The last nonce count taken.
    let nonceCount = Atomic(0)
    /// Hex; each cnonce is this followed by the nonce count.
    let clientNoncePrefix: [UInt8]
    /// The user name as sent: hashed with the realm under `userhash`.
    let sentUsername: String
    /// `H(username:realm:password)`, the same for every request of the space.
    let credentialsHash: String
    /// The header's fields that no request changes, up to the opening quote of `uri`.
    let fieldPrefix: [UInt8]
    /// The hasher of `response` fed with what every request shares; `nil` for `-sess`.
    let sharedResponseStart: DigestHasher?

    init(challenge: DigestChallenge, kind: ChallengeKind, clientNoncePrefix: [UInt8], sentUsername: String, credentialsHash: String) {
        self.challenge = challenge
        self.kind = kind
        self.clientNoncePrefix = clientNoncePrefix
        self.sentUsername = sentUsername
        self.credentialsHash = credentialsHash
        var prefix = Array("Digest username=".utf8)
        DigestAuthentication.appendQuoted(sentUsername, to: &prefix)
        prefix.append(contentsOf: ", realm=".utf8)
        DigestAuthentication.appendQuoted(challenge.realm, to: &prefix)
        prefix.append(contentsOf: ", algorithm=\(challenge.algorithm.name), nonce=".utf8)
        DigestAuthentication.appendQuoted(challenge.nonce, to: &prefix)
        if let qop = challenge.qop { prefix.append(contentsOf: ", qop=\(qop)".utf8) }
        if let opaque = challenge.opaque {
            prefix.append(contentsOf: ", opaque=".utf8)
            DigestAuthentication.appendQuoted(opaque, to: &prefix)
        }
        if challenge.userhash { prefix.append(contentsOf: ", userhash=true".utf8) }
        prefix.append(contentsOf: #", uri=""#.utf8)
        fieldPrefix = prefix
        sharedResponseStart = challenge.algorithm.isSession
            ? nil
            : DigestAuthentication.responseStart(
                algorithm: challenge.algorithm, credentialsHash: credentialsHash, nonce: challenge.nonce, cnonce: [])
    }

    /// The same space with the server's next nonce, counted from 1 again.
    func renewed(nonce: String) -> DigestSession {
        var challenge = challenge
        challenge.nonce = nonce
        return DigestSession(
            challenge: challenge, kind: kind, clientNoncePrefix: clientNoncePrefix, sentUsername: sentUsername,
            credentialsHash: credentialsHash)
    }
}
