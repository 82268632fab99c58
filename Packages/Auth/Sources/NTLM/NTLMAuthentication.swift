import Foundation
import JewzHTTPCore

/// Answers a server's (401) or a proxy's (407) `NTLM` challenge with NTLMv2 (MS-NLMP): the
/// negotiate message, then the answer to the server's challenge, with the challenge's target
/// information and timestamp and a MIC when the challenge has a timestamp. LM and NTLMv1
/// responses are never sent.
///
/// NTLM authenticates a connection, not a request: the session sends the two legs and the
/// request they unlock over one HTTP/1.1 connection of their own, closed after
/// (``/JewzHTTPCore/HTTPConnectionAuthentication``). JewzURLSession's `URLSessionTransport` cannot promise that and fails
/// such a request. Every request that meets the challenge runs the handshake again.
///
/// ```swift
/// let ntlm = NTLMAuthentication(username: "ada", password: "s3cret", domain: "CORP")
/// try session.update { $0.authentications = [ntlm] }
/// ```
///
/// A server that refuses the answer ends the cycle with its 401: a wrong password never loops.
/// Not supported: `Negotiate` (SPNEGO) wrapping NTLM, and channel bindings for servers that
/// require Extended Protection over HTTPS.
public final class NTLMAuthentication: HTTPConnectionAuthentication {
    /// The user name sent, without its domain.
    public let username: String
    /// The domain sent; empty for none.
    public let domain: String
    private let responseKey: [UInt8]

    /// An authentication that answers an NTLM challenge with NTLMv2 as `username`.
    ///
    /// - Parameters:
    ///   - username: the user, or `DOMAIN\user` when `domain` is `nil`.
    ///   - password: the user's password, kept only as the NT hash NTLMv2 needs.
    ///   - domain: the user's domain; `nil` takes it from `username`, else none.
    public init(username: String, password: String, domain: String? = nil) {
        if domain == nil, let separator = username.firstIndex(of: "\\") {
            self.domain = String(username[..<separator])
            self.username = String(username[username.index(after: separator)...])
        } else {
            self.domain = domain ?? ""
            self.username = username
        }
        responseKey = NTLMv2Response.responseKey(user: self.username, password: password, domain: self.domain)
    }

    /// Nothing: NTLM cannot be sent before the server's challenge.
    public func authorize(_ request: inout HTTPRequest) async throws {}

    /// Whether `challenge` starts NTLM's handshake, which needs a connection of its own.
    public func answersWithHandshake(_ challenge: HTTPResponse) -> Bool {
        ntlmChallenge(in: challenge) != nil
    }

    /// Answers a bare `NTLM` challenge with the negotiate message, and a challenge with a token
    /// (the server's CHALLENGE_MESSAGE) after that negotiate with the authenticate message.
    /// Returns `false` for any other: after the authenticate message, it means the server
    /// refused the credentials.
    ///
    /// - Throws: ``AuthError`` (``AuthError/Code-swift.struct/invalidChallenge``) for a
    ///   challenge token that is not an NTLM CHALLENGE_MESSAGE.
    public func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool {
        guard let (kind, offered) = ntlmChallenge(in: challenge) else { return false }
        let sent = Self.message(in: request.headers[kind.credentialsField])
        switch (offered.token, sent) {
        case (nil, nil):
            request.headers[kind.credentialsField] = Self.field(NTLMMessages.negotiate)
            return true
        case (let token?, let negotiate?) where negotiate.count >= 12 && negotiate.littleEndianUInt32(at: 8) == 1:
            guard let bytes = Data(base64Encoded: token) else { throw AuthError.invalidChallenge("its token is not Base64") }
            let message = NTLMMessages.authenticate(
                answering: try NTLMChallengeMessage(Array(bytes)), negotiate: negotiate, user: username, domain: domain,
                responseKey: responseKey, clientChallenge: (0..<8).map { _ in UInt8.random(in: .min ... .max) },
                now: Self.fileTime(Date()))
            request.headers[kind.credentialsField] = Self.field(message)
            return true
        default:
            return false
        }
    }

    /// Nothing: NTLM's answers carry nothing to check.
    public func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {}

    /// The NTLM challenge of a 401 or 407, with which of the two it is.
    private func ntlmChallenge(in response: HTTPResponse) -> (ChallengeKind, AuthenticationChallenge)? {
        guard let kind = ChallengeKind(statusCode: response.statusCode),
            let challenge = kind.challenges(in: response).first(where: { $0.scheme == "ntlm" })
        else { return nil }
        return (kind, challenge)
    }

    /// The NTLM message an `Authorization` value carries, if it carries one.
    private static func message(in field: String?) -> [UInt8]? {
        guard let field, field.hasPrefix("NTLM "), let data = Data(base64Encoded: String(field.dropFirst(5))) else { return nil }
        return Array(data)
    }

    private static func field(_ message: [UInt8]) -> String {
        "NTLM " + Data(message).base64EncodedString()
    }

    /// `date` as a FILETIME: tenths of a microsecond since 1601, 8 bytes little-endian.
    package static func fileTime(_ date: Date) -> [UInt8] {
        let ticks = UInt64(max(0, (date.timeIntervalSince1970 + 11_644_473_600) * 10_000_000))
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(ticks)
        return bytes
    }
}
