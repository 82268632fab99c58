/// Why an authentication could not do its part. Wrapped by a cycle as
/// `HTTPError.Code.authentication` with this as `underlying`.
///
/// A struct with a growable ``Code``, as `HTTPError`: switch over ``code`` with a `default`.
public struct AuthError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a value to compare with the static members; new ones may come.
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
        /// An OAuth authorization server refused a request: ``AuthError/oauthError`` says why
        /// (`invalid_client`, `invalid_grant`, `invalid_scope`…).
        public static let authorizationServer = Code("authorizationServer")
        /// An authorization server's answer (a token, metadata, a device code) could not be read.
        public static let invalidServerResponse = Code("invalidServerResponse")
        /// The user refused the sign-in.
        public static let accessDenied = Code("accessDenied")
        /// A sign-in's code expired, or no sign-in came back in time, before the user approved it.
        public static let expiredToken = Code("expiredToken")
        /// No token is held and the grant cannot get one without a user: sign in first.
        public static let loginRequired = Code("loginRequired")
        /// The server refused a token that had just been refreshed.
        public static let tokenRejected = Code("tokenRejected")
        /// A signing key could not be read.
        public static let invalidKey = Code("invalidKey")
        /// An authorization server's endpoint is not `https` (and not on loopback): its requests
        /// carry secrets that must not cross the network in the clear.
        public static let insecureEndpoint = Code("insecureEndpoint")
        /// A token store cannot be trusted: it belongs to another user, others may change or
        /// read it, or it holds another server's or client's token.
        public static let untrustedTokenStore = Code("untrustedTokenStore")
        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    private let detail: String
    /// The OAuth `error` an authorization server answered with, for
    /// ``Code-swift.struct/authorizationServer`` (RFC 6749 §5.2's codes, or the server's own).
    public let oauthError: String?

    private init(_ code: Code, _ detail: String, oauthError: String? = nil) {
        self.code = code
        self.detail = detail
        self.oauthError = oauthError
    }

    static func authorizationServer(error: String, description: String?, endpoint: String) -> AuthError {
        AuthError(.authorizationServer, "\(endpoint) refused with \(error)" + (description.map { ": \($0)" } ?? ""), oauthError: error)
    }

    static func invalidServerResponse(_ reason: String) -> AuthError { AuthError(.invalidServerResponse, reason) }
    static func accessDenied(_ reason: String) -> AuthError { AuthError(.accessDenied, reason) }
    static func expiredToken(_ reason: String) -> AuthError { AuthError(.expiredToken, reason) }
    static func loginRequired(_ reason: String) -> AuthError { AuthError(.loginRequired, reason) }
    static func tokenRejected(_ reason: String) -> AuthError { AuthError(.tokenRejected, reason) }
    static func invalidKey(_ reason: String) -> AuthError { AuthError(.invalidKey, reason) }
    static func insecureEndpoint(_ url: String) -> AuthError { AuthError(.insecureEndpoint, url) }
    static func untrustedTokenStore(_ reason: String) -> AuthError { AuthError(.untrustedTokenStore, reason) }

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

    /// What went wrong and what to do about it.
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
        case .authorizationServer:
            return "The authorization server \(detail). " + Self.advice(forOAuthError: oauthError)
        case .invalidServerResponse:
            return "The authorization server's answer cannot be used: \(detail)."
        case .accessDenied:
            return "Sign-in refused: \(detail)."
        case .expiredToken:
            return "Sign-in expired: \(detail); start it again."
        case .loginRequired:
            return "Not signed in: \(detail). Sign in first (jewz auth login)."
        case .tokenRejected:
            return "The server refused a fresh token (\(detail)): the token lacks a right this request needs, or the server does not trust its issuer."
        case .invalidKey:
            return "The signing key cannot be used: \(detail)."
        case .untrustedTokenStore:
            return "The token store cannot be used: \(detail)."
        case .insecureEndpoint:
            return "The authorization server's endpoint \(detail) is not https: its requests carry secrets. Use its https URL (only loopback may be http)."
        default:
            return "\(code): \(detail)"
        }
    }

    /// What to do about an OAuth error code.
    private static func advice(forOAuthError error: String?) -> String {
        switch error {
        case "invalid_client": "Check the client ID and its secret or key."
        case "invalid_grant": "The code or refresh token is no longer valid: sign in again."
        case "invalid_scope": "Ask for scopes the client is allowed."
        case "unauthorized_client": "The server does not allow this client that grant."
        case "unsupported_grant_type": "The server does not offer that grant."
        default: "See the server's documentation for that error."
        }
    }
}
