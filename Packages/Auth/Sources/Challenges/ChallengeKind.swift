import Foundation
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

/// Where credentials answered once are sent again without being asked: the same origin, at or
/// below the directory of the URL that was challenged (RFC 7617 §2.2).
struct ProtectionScope: Sendable, Hashable {
    let origin: String
    let directory: String

    init(_ url: URL) {
        origin = Self.origin(of: url)
        let path = url.path.isEmpty ? "/" : url.path
        directory = path.hasSuffix("/") ? path : String(path[...(path.lastIndex(of: "/") ?? path.startIndex)])
    }

    func contains(_ url: URL) -> Bool {
        Self.origin(of: url) == origin && (url.path.isEmpty ? "/" : url.path).hasPrefix(directory)
    }

    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
