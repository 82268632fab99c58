/// Why an authentication could not do its part. Wrapped by a cycle as
/// `HTTPError.Code.authentication` with this as `underlying`.
///
/// A struct with a growable ``Code``, as `HTTPError`: switch over ``code`` with a `default`.
public struct AuthError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) {
            self.name = name
        }
        /// Digest `auth-int` needs the body's hash, which a one-shot stream cannot give twice.
        public static let bodyNotHashable = Code("bodyNotHashable")
        /// The server's `rspauth` does not prove it knows the password: it may not be the server.
        public static let serverNotAuthenticated = Code("serverNotAuthenticated")
        /// A token was refreshed more often than the authenticator allows: the server refuses
        /// every new token.
        public static let refreshLimit = Code("refreshLimit")
        /// The server's NTLM challenge could not be read.
        public static let invalidChallenge = Code("invalidChallenge")
        public var description: String { name }
    }

    public let code: Code
    private let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    static func bodyNotHashable() -> AuthError {
        AuthError(.bodyNotHashable, "")
    }

    static func serverNotAuthenticated(url: String) -> AuthError {
        AuthError(.serverNotAuthenticated, url)
    }

    static func refreshLimit(_ count: Int, window: Duration) -> AuthError {
        AuthError(.refreshLimit, "\(count) refreshes in \(window)")
    }

    static func invalidChallenge(_ reason: String) -> AuthError {
        AuthError(.invalidChallenge, reason)
    }

    public var description: String {
        switch code {
        case .invalidChallenge:
            return "The server's NTLM challenge could not be read (\(detail)): the server, or a proxy on the way, does not speak NTLM as MS-NLMP defines it."
        case .refreshLimit:
            return "The token was refreshed \(detail) and the server still refuses it; check the refresh and the server's token validation."
        case .bodyNotHashable:
            return "Digest qop=auth-int hashes the request body, and a one-shot stream body cannot be read twice; send .data or .file."
        case .serverNotAuthenticated:
            return "The server at \(detail) answered with an rspauth that does not match the credentials: it may not be the server it claims to be."
        default:
            return "\(code): \(detail)"
        }
    }
}
