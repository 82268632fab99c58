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
    private let sessions = Mutex<[ProtectionScope: DigestSession]>([:])

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    public func authorize(_ request: inout HTTPRequest) async throws {
        let url = request.url
        let taken = sessions.withLock { sessions -> (DigestSession, Int)? in
            guard let scope = sessions.keys.first(where: { $0.contains(url) }), var session = sessions[scope] else { return nil }
            session.nonceCount += 1
            sessions[scope] = session
            return (session, session.nonceCount)
        }
        guard let (session, count) = taken, !request.headers.contains(session.kind.credentialsField) else { return }
        request.headers[session.kind.credentialsField] = try credentials(for: request, session: session, nonceCount: count)
    }

    public func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool {
        guard let kind = ChallengeKind(statusCode: challenge.statusCode) else { return false }
        let offers = kind.challenges(in: challenge).compactMap(DigestChallenge.init)
        guard let best = offers.max(by: { $0.algorithm.strength < $1.algorithm.strength }) else { return false }
        // The same nonce refused again, not as stale: the credentials are wrong; do not loop.
        let sent = request.headers[kind.credentialsField].flatMap { AuthenticationChallenge.parse($0).first }
        if sent?.scheme == "digest", sent?["nonce"] == best.nonce, !best.isStale { return false }
        let session = DigestSession(challenge: best, kind: kind, nonceCount: 1)
        sessions.withLock { $0[ProtectionScope(request.url)] = session }
        request.headers[kind.credentialsField] = try credentials(for: request, session: session, nonceCount: 1)
        return true
    }

    public func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {
        for kind in [ChallengeKind.server, .proxy] {
            guard let info = response.headers[kind.infoField],
                let sent = request.headers[kind.credentialsField].flatMap({ AuthenticationChallenge.parse($0).first }),
                sent.scheme == "digest"
            else { continue }
            let fields = AuthenticationChallenge.parse("Digest " + info).first
            let scope = ProtectionScope(request.url)
            let session = sessions.withLock { sessions -> DigestSession? in
                guard let key = sessions.keys.first(where: { $0.contains(request.url) }) ?? sessions.keys.first(where: { $0 == scope })
                else { return nil }
                if let next = fields?["nextnonce"], var session = sessions[key] {
                    session.challenge.nonce = next
                    session.nonceCount = 0
                    sessions[key] = session
                }
                return sessions[key]
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
        let cnonce = Self.makeClientNonce()
        let nc = String(format: "%08x", nonceCount)
        let uri = Self.target(of: request.url)
        let bodyHash = challenge.qop == "auth-int" ? try Self.bodyHash(of: request, algorithm: challenge.algorithm) : nil
        let response = Self.response(
            algorithm: challenge.algorithm, username: username, realm: challenge.realm, password: password,
            method: request.method.rawValue, uri: uri, nonce: challenge.nonce, nc: nc, cnonce: cnonce, qop: challenge.qop,
            bodyHash: bodyHash)
        let user = challenge.userhash ? challenge.algorithm.digest("\(username):\(challenge.realm)") : username
        var fields = [
            "username=\(Self.quoted(user))", "realm=\(Self.quoted(challenge.realm))", "uri=\(Self.quoted(uri))",
            "algorithm=\(challenge.algorithm.name)", "nonce=\(Self.quoted(challenge.nonce))",
        ]
        if let qop = challenge.qop { fields += ["nc=\(nc)", "cnonce=\(Self.quoted(cnonce))", "qop=\(qop)"] }
        fields.append("response=\(Self.quoted(response))")
        if let opaque = challenge.opaque { fields.append("opaque=\(Self.quoted(opaque))") }
        if challenge.userhash { fields.append("userhash=true") }
        return "Digest " + fields.joined(separator: ", ")
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
        var ha1 = algorithm.digest("\(username):\(realm):\(password)")
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

    /// The request target as sent: the path (at least `/`) and the query, percent-encoded.
    static func target(of url: URL) -> String {
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        return url.query(percentEncoded: true).map { path + "?" + $0 } ?? path
    }

    private static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    private static func makeClientNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
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

/// What a protection space's last challenge said, and the nonce count used so far.
struct DigestSession: Sendable {
    var challenge: DigestChallenge
    var kind: ChallengeKind
    var nonceCount: Int
}
