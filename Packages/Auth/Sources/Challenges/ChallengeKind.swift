import JewzHTTPCore

/// Which side asked: the origin server (401, `WWW-Authenticate` → `Authorization`) or a proxy
/// (407, `Proxy-Authenticate` → `Proxy-Authorization`).
enum ChallengeKind: Sendable, Hashable {
    case server, proxy

    /// The kind of a challenge response; `nil` for any other status.
    init?(statusCode: Int) {
        switch statusCode {
        case 401: self = .server
        case 407: self = .proxy
        default: return nil
        }
    }

    var challengeField: String { self == .server ? "WWW-Authenticate" : "Proxy-Authenticate" }
    var credentialsField: String { self == .server ? "Authorization" : "Proxy-Authorization" }
    var infoField: String { self == .server ? "Authentication-Info" : "Proxy-Authentication-Info" }

    /// The challenges of `response` for this kind.
    func challenges(in response: HTTPResponse) -> [AuthenticationChallenge] {
        AuthenticationChallenge.parse(response.headers.values(for: challengeField))
    }
}
