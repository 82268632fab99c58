import Foundation
import JewzHTTPCore
import JewzLocking

/// Answers a `Basic` challenge (RFC 7617) from a server (401) or a proxy (407) with a user and
/// password, then sends them without being asked to the same origin at or below the challenged
/// directory. A second challenge after an answer ends the cycle with that response: a wrong
/// password never loops.
///
/// ```swift
/// try session.update { $0.authentications = [BasicAuthentication(username: "ada", password: "s3cret")] }
/// ```
///
/// The user and password are sent as UTF-8, as RFC 7617 asks when the challenge says
/// `charset="UTF-8"` and as browsers do otherwise.
public final class BasicAuthentication: HTTPAuthentication {
    private let credentials: String
    /// The scopes answered so far, with the kind of challenge each came from.
    private let scopes = Mutex<[ProtectionScope: ChallengeKind]>([:])

    /// - Parameters:
    ///   - username: must not contain `:`, which the scheme cannot carry (RFC 7617 §2).
    public init(username: String, password: String) {
        credentials = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }

    public func authorize(_ request: inout HTTPRequest) async throws {
        let url = request.url
        let kinds = scopes.withLock { scopes in scopes.filter { $0.key.contains(url) }.map(\.value) }
        for kind in Set(kinds) where !request.headers.contains(kind.credentialsField) {
            request.headers[kind.credentialsField] = credentials
        }
    }

    public func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool {
        guard let kind = ChallengeKind(statusCode: challenge.statusCode),
            kind.challenges(in: challenge).contains(where: { $0.scheme == "basic" })
        else { return false }
        request.headers[kind.credentialsField] = credentials
        let scope = ProtectionScope(request.url)
        scopes.withLock { $0[scope] = kind }
        return true
    }

    /// Basic's answers carry nothing to check.
    public func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {}
}
