import Foundation
import JewzHTTPCore

/// Sets `Authorization` on every request it prepares, with any scheme, or another field a
/// server wants (an API key). A request that sets its own keeps it.
///
/// As a session's processor it follows the session's rule for credentials: with a base URL,
/// only requests for its origin get the field. Naming `origins` narrows it further, wherever
/// it is used.
///
/// ```swift
/// let key = "3f2c"
/// let apiKey = ProcessInfo.processInfo.environment["API_KEY"] ?? ""
/// try session.update { $0.requestProcessors = [AuthorizationHeaderProcessor(scheme: "Token", credentials: apiKey), HTTPJSONProcessor()] }
/// let scoped = AuthorizationHeaderProcessor(scheme: "", credentials: key, field: "X-Api-Key", origins: ["https://api.example.com"])
/// ```
public struct AuthorizationHeaderProcessor: HTTPCredentialProcessor {
    /// The field's whole value (`Token abc`).
    public let value: String
    /// The field set: `Authorization`, or another a server wants (`X-Api-Key`).
    public let field: String
    /// The origins (`https://api.example.com`, scheme, host and port) that get the field;
    /// empty for any the session lets its credentials go to.
    public let origins: Set<String>

    /// A processor that sends `scheme` and `credentials` in `field`, to `origins` only when named.
    ///
    /// - Parameters:
    ///   - scheme: the word before the credentials (`Bearer`, `Token`); empty for the
    ///     credentials alone (an API key).
    ///   - credentials: the token or key.
    ///   - field: the header field to set: `Authorization`, or another a server wants.
    ///   - origins: URLs whose origins alone get the field (`https://api.example.com`, a path
    ///     ignored); empty for any. A string that is no URL matches nothing.
    public init(scheme: String, credentials: String, field: String = "Authorization", origins: [String] = []) {
        value = scheme.isEmpty ? credentials : "\(scheme) \(credentials)"
        self.field = field
        self.origins = CredentialOrigins.normalized(origins)
    }

    /// Sets the field when the request's origin may have it, unless the request sets it already.
    public func prepare(_ request: inout HTTPRequest) throws {
        guard CredentialOrigins.allow(request.url, in: origins) else { return }
        if !request.headers.contains(field) { request.headers[field] = value }
    }
}

/// Sends Basic credentials with every request, without waiting for a challenge (to `origins`
/// only, when named; see ``AuthorizationHeaderProcessor``).
public struct BasicAuthProcessor: HTTPCredentialProcessor {
    private let header: AuthorizationHeaderProcessor

    /// Sends `Basic` with `username:password` to `origins` (every origin the session's credentials
    /// go to when empty).
    public init(username: String, password: String, origins: [String] = []) {
        header = AuthorizationHeaderProcessor(
            scheme: "Basic", credentials: Data("\(username):\(password)".utf8).base64EncodedString(), origins: origins)
    }

    /// Sets `Authorization: Basic …` when the request's origin may have it.
    public func prepare(_ request: inout HTTPRequest) throws {
        try header.prepare(&request)
    }
}

/// Sends a bearer token (RFC 6750) with every request (to `origins` only, when named; see
/// ``AuthorizationHeaderProcessor``). For a token that expires and is refreshed, use an
/// authentication that refreshes it instead.
public struct BearerTokenProcessor: HTTPCredentialProcessor {
    private let header: AuthorizationHeaderProcessor

    /// Sends `Bearer token` to `origins` (every origin the session's credentials go to when empty).
    public init(token: String, origins: [String] = []) {
        header = AuthorizationHeaderProcessor(scheme: "Bearer", credentials: token, origins: origins)
    }

    /// Sets `Authorization: Bearer …` when the request's origin may have it.
    public func prepare(_ request: inout HTTPRequest) throws {
        try header.prepare(&request)
    }
}
