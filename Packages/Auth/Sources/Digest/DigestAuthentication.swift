import Foundation
import JewzHTTPCore
import Synchronization

/// Answers a `Digest` challenge (RFC 7616) from a server (401) or a proxy (407): MD5, SHA-256
/// and their `-sess` variants, qop `auth` and `auth-int`, `userhash`, `stale=true` answered
/// with the new nonce, `Authentication-Info`'s `nextnonce` used and its `rspauth` checked.
///
/// After the first answer, requests to the same origin at or below the challenged directory
/// are authorized without a challenge, each with the next nonce count: counts are taken under
/// a lock, so concurrent requests never share one and use them in order.
///
/// ```swift
/// session.authentications = [DigestAuthentication(username: "Mufasa", password: "Circle of Life")]
/// ```
public final class DigestAuthentication: HTTPAuthentication {
    private let username: String
    private let password: String
    /// The spaces answered so far, most recent first; few, so a list rather than a table.
    private let sessions = Mutex<[(scope: ProtectionScope, session: DigestSession)]>([])

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    public func authorize(_ request: inout HTTPRequest) async throws {
        let url = request.url
        guard let session = sessions.withLock({ $0.first { $0.scope.contains(url) }?.session }),
            !request.headers.contains(session.kind.credentialsField)
        else { return }
        // Counts come from one atomic per nonce: unique, and in the order requests took them.
        let count = session.nonceCount.add(1, ordering: .relaxed).newValue
        request.headers[session.kind.credentialsField] = try credentials(for: request, session: session, nonceCount: count)
    }

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

    /// The `Authorization` (or `Proxy-Authorization`) value for `request`.
    private func credentials(for request: HTTPRequest, session: DigestSession, nonceCount: Int) throws -> String {
        let challenge = session.challenge
        let nc = Self.nonceCountField(nonceCount)
        let cnonce = session.clientNoncePrefix + nc
        let uri = Self.target(of: request.url)
        let bodyHash = challenge.qop == "auth-int" ? try Self.bodyHash(of: request, algorithm: challenge.algorithm) : nil
        let response = Self.response(
            algorithm: challenge.algorithm, credentialsHash: session.credentialsHash, method: request.method.rawValue,
            uri: uri, nonce: challenge.nonce, nc: nc, cnonce: cnonce, qop: challenge.qop, bodyHash: bodyHash)
        // One string, appended in place: joining an array of interpolated fields cost more
        // than both hashes.
        var field = "Digest username="
        field.reserveCapacity(320)
        Self.appendQuoted(session.sentUsername, to: &field)
        field += ", realm="
        Self.appendQuoted(challenge.realm, to: &field)
        field += ", uri="
        Self.appendQuoted(uri, to: &field)
        field += ", algorithm="
        field += challenge.algorithm.name
        field += ", nonce="
        Self.appendQuoted(challenge.nonce, to: &field)
        if let qop = challenge.qop {
            field += ", nc="
            field += nc
            field += ", cnonce=\""
            field += cnonce
            field += "\", qop="
            field += qop
        }
        field += ", response=\""
        field += response
        field += "\""
        if let opaque = challenge.opaque {
            field += ", opaque="
            Self.appendQuoted(opaque, to: &field)
        }
        if challenge.userhash { field += ", userhash=true" }
        return field
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
        response(
            algorithm: algorithm, credentialsHash: algorithm.digest("\(username):\(realm):\(password)"), method: method,
            uri: uri, nonce: nonce, nc: nc, cnonce: cnonce, qop: qop, bodyHash: bodyHash)
    }

    /// The `response` from `H(username:realm:password)`, which a session keeps rather than
    /// hashing again for every request.
    static func response(
        algorithm: DigestAlgorithm, credentialsHash: String, method: String, uri: String,
        nonce: String, nc: String, cnonce: String, qop: String?, bodyHash: String?
    ) -> String {
        var ha1 = credentialsHash
        if algorithm.isSession { ha1 = algorithm.digest("\(ha1):\(nonce):\(cnonce)") }
        let ha2 = algorithm.digest(qop == "auth-int" ? "\(method):\(uri):\(bodyHash ?? "")" : "\(method):\(uri)")
        guard let qop else { return algorithm.digest("\(ha1):\(nonce):\(ha2)") }
        return algorithm.digest("\(ha1):\(nonce):\(nc):\(cnonce):\(qop):\(ha2)")
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
    static func target(of url: URL) -> String {
        let text = Array(url.absoluteString.utf8)
        let end = text.firstIndex(of: UInt8(ascii: "#")) ?? text.count
        // The authority starts after "://" (the first "//") and ends at the first "/" or "?".
        var index = 0
        while index + 1 < end, !(text[index] == UInt8(ascii: "/") && text[index + 1] == UInt8(ascii: "/")) { index += 1 }
        index += 2
        while index < end, text[index] != UInt8(ascii: "/"), text[index] != UInt8(ascii: "?") { index += 1 }
        guard index < end else { return "/" }
        let target = String(decoding: text[index..<end], as: UTF8.self)
        return text[index] == UInt8(ascii: "?") ? "/" + target : target
    }

    /// Appends `value` as a quoted string, `"` and `\` escaped.
    private static func appendQuoted(_ value: String, to field: inout String) {
        field += "\""
        if value.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            for character in value {
                if character == "\"" || character == "\\" { field += "\\" }
                field.append(character)
            }
        } else {
            field += value
        }
        field += "\""
    }

    /// 16 random bytes in hex: a session's cnonces start with it and end with the nonce count,
    /// so each is unique and unpredictable without a system call per request.
    private static func makeClientNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next() as UInt64, generator.next() as UInt64]
        return words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * $0)) } }.hex
    }

    /// `nc` as RFC 7616 writes it: 8 hex digits.
    static func nonceCountField(_ count: Int) -> String {
        (0..<4).map { UInt8(truncatingIfNeeded: count >> (24 - 8 * $0)) }.hex
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
    let clientNoncePrefix: String
    /// The user name as sent: hashed with the realm under `userhash`.
    let sentUsername: String
    /// `H(username:realm:password)`, the same for every request of the space.
    let credentialsHash: String

    init(challenge: DigestChallenge, kind: ChallengeKind, clientNoncePrefix: String, sentUsername: String, credentialsHash: String) {
        self.challenge = challenge
        self.kind = kind
        self.clientNoncePrefix = clientNoncePrefix
        self.sentUsername = sentUsername
        self.credentialsHash = credentialsHash
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
