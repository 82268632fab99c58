import Foundation
import JewzHTTPCore
import JewzLocking

/// Answers a server's (401) or a proxy's (407) challenge with a user and password in the
/// strongest scheme it offers among ``schemes``: `Digest` (RFC 7616, through a
/// ``DigestAuthentication``), then `NTLM` (NTLMv2, through an ``NTLMAuthentication``, on a
/// connection of its own), then `Basic` (RFC 7617) — curl's order. After a Basic answer it sends the
/// credentials without being asked to the same origin at or below the challenged directory. A
/// second challenge after an answer ends the cycle with that response: a wrong password never
/// loops.
///
/// ```swift
/// try session.update { $0.authentications = [BasicAuthentication(username: "ada", password: "s3cret")] }
/// let basicOnly = BasicAuthentication(username: "ada", password: "s3cret", schemes: [.basic])
/// ```
///
/// The user and password are sent as UTF-8, as RFC 7617 asks when the challenge says
/// `charset="UTF-8"` and as browsers do otherwise.
public final class BasicAuthentication: HTTPConnectionAuthentication {
    /// An authentication scheme it may answer with.
    public struct Scheme: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// `Basic` (RFC 7617): the password, encoded, with every request to the space.
        public static let basic = Scheme(name: "basic")
        /// `Digest` (RFC 7616): a hash that proves the password without sending it.
        public static let digest = Scheme(name: "digest")
        /// `NTLM` (MS-NLMP, NTLMv2): a handshake that authenticates the connection.
        public static let ntlm = Scheme(name: "ntlm")

        /// The scheme's name.
        public var description: String { name }
    }

    /// The schemes it answers with, the strongest offered first.
    public let schemes: Set<Scheme>
    private let credentials: String
    private let digest: DigestAuthentication?
    private let ntlm: NTLMAuthentication?
    /// The scopes answered with Basic so far, with the kind of challenge each came from.
    private let scopes = Mutex<[ProtectionScope: ChallengeKind]>([:])

    /// An authentication that answers a challenge with the strongest of `schemes` the server
    /// offers.
    ///
    /// - Parameters:
    ///   - username: must not contain `:`, which Basic cannot carry (RFC 7617 §2). NTLM reads
    ///     `DOMAIN\user` as a user of a domain.
    ///   - password: the user's password; it is kept only as the schemes need it.
    ///   - schemes: the schemes it may answer with; `[.basic]` for exactly Basic.
    public init(username: String, password: String, schemes: Set<Scheme> = [.digest, .ntlm, .basic]) {
        credentials = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        self.schemes = schemes
        digest = schemes.contains(.digest) ? DigestAuthentication(username: username, password: password) : nil
        ntlm = schemes.contains(.ntlm) ? NTLMAuthentication(username: username, password: password) : nil
    }

    /// Sends the credentials of a scope answered before without waiting for its challenge: Digest's
    /// with the next nonce count, Basic's as they are.
    ///
    /// - Throws: for `auth-int`, ``AuthError/Code/bodyNotHashable`` for a streamed body,
    /// `HTTPError` with code `.unreadableBody` for a file that cannot be read.
    public func authorize(_ request: inout HTTPRequest) async throws {
        try await digest?.authorize(&request)
        let url = request.url
        let kinds = scopes.withLock { scopes in scopes.filter { $0.key.contains(url) }.map(\.value) }
        for kind in Set(kinds) where !request.headers.contains(kind.credentialsField) {
            request.headers[kind.credentialsField] = credentials
        }
    }

    /// Answers a 401 or 407 with the strongest offered scheme of ``schemes``; `false` when none is
    /// offered, or this scope was answered already.
    ///
    /// - Throws: ``AuthError`` for a challenge that cannot be read.
    public func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool {
        guard let kind = ChallengeKind(statusCode: challenge.statusCode) else { return false }
        let offered = Set(kind.challenges(in: challenge).map(\.scheme))
        if let digest, offered.contains("digest") { return try await digest.respond(to: challenge, retrying: &request) }
        if let ntlm, offered.contains("ntlm") { return try await ntlm.respond(to: challenge, retrying: &request) }
        guard schemes.contains(.basic), offered.contains("basic") else { return false }
        // The same credentials refused: do not send them again.
        if request.headers[kind.credentialsField] == credentials { return false }
        request.headers[kind.credentialsField] = credentials
        let scope = ProtectionScope(request.url)
        scopes.withLock { $0[scope] = kind }
        return true
    }

    /// Whether it answers `challenge` with NTLM: when the challenge offers NTLM and no Digest.
    public func answersWithHandshake(_ challenge: HTTPResponse) -> Bool {
        guard let ntlm, ntlm.answersWithHandshake(challenge), let kind = ChallengeKind(statusCode: challenge.statusCode) else {
            return false
        }
        return digest == nil || !kind.challenges(in: challenge).contains { $0.scheme == "digest" }
    }

    /// Digest's `Authentication-Info` is checked; Basic's answers carry nothing to check.
    public func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {
        try digest?.didReceive(response, for: request)
    }
}
