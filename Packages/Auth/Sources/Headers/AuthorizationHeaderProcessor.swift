import Foundation
import JewzHTTPCore

/// Sets `Authorization` on every request it prepares, with any scheme: the seed's "prepare the
/// request manually" and Networking's custom header. A request that sets its own keeps it.
///
/// ```swift
/// try session.update { $0.requestProcessors = [AuthorizationHeaderProcessor(scheme: "Token", credentials: apiKey), HTTPJSONProcessor()] }
/// ```
public struct AuthorizationHeaderProcessor: HTTPRequestProcessor {
    /// The field's whole value (`Token abc`).
    public let value: String
    /// The field set: `Authorization`, or another a server wants (`X-Api-Key`).
    public let field: String

    public init(scheme: String, credentials: String, field: String = "Authorization") {
        value = scheme.isEmpty ? credentials : "\(scheme) \(credentials)"
        self.field = field
    }

    public func prepare(_ request: inout HTTPRequest) throws {
        if !request.headers.contains(field) { request.headers[field] = value }
    }
}

/// Sends Basic credentials with every request, without waiting for a challenge.
public struct BasicAuthProcessor: HTTPRequestProcessor {
    private let header: AuthorizationHeaderProcessor

    public init(username: String, password: String) {
        header = AuthorizationHeaderProcessor(
            scheme: "Basic", credentials: Data("\(username):\(password)".utf8).base64EncodedString())
    }

    public func prepare(_ request: inout HTTPRequest) throws {
        try header.prepare(&request)
    }
}

/// Sends a bearer token (RFC 6750) with every request. For a token that expires and is
/// refreshed, use an authentication that refreshes it instead.
public struct BearerTokenProcessor: HTTPRequestProcessor {
    private let header: AuthorizationHeaderProcessor

    public init(token: String) {
        header = AuthorizationHeaderProcessor(scheme: "Bearer", credentials: token)
    }

    public func prepare(_ request: inout HTTPRequest) throws {
        try header.prepare(&request)
    }
}
