import Foundation
import JewzHTTPCore

/// Origins named for credentials, compared as scheme, host and port.
enum CredentialOrigins {
    /// The origins of `urls`; a string that is no absolute URL is kept as written, so that it
    /// matches nothing rather than everything.
    static func normalized(_ urls: [String]) -> Set<String> {
        Set(urls.map { text in URL(string: text).flatMap { $0.host == nil ? nil : $0.origin } ?? text })
    }

    /// Whether a request for `url` may carry credentials limited to `origins` (empty: any).
    static func allow(_ url: URL, in origins: Set<String>) -> Bool {
        origins.isEmpty || origins.contains(url.origin)
    }
}

/// An authentication that gives credentials, and answers challenges, only for requests to
/// the origins it names: ``JewzHTTPCore/HTTPAuthentication/limited(to:)``.
///
/// It answers with a handshake on a connection of its own when its base does (NTLM, or
/// ``BasicAuthentication`` answering NTLM), so that limiting one keeps its handshake working.
public struct OriginLimitedAuthentication: HTTPConnectionAuthentication {
    /// The authentication it limits.
    public let base: any HTTPAuthentication
    /// The origins (scheme, host and port) it serves; empty, none.
    public let origins: Set<String>

    /// Whether the base answers `challenge` with a handshake on a connection of its own.
    public func answersWithHandshake(_ challenge: HTTPResponse) -> Bool {
        (base as? any HTTPConnectionAuthentication)?.answersWithHandshake(challenge) ?? false
    }

    /// The base's credentials, for a request to one of the origins.
    public func authorize(_ request: inout HTTPRequest) async throws {
        guard origins.contains(request.url.origin) else { return }
        try await base.authorize(&request)
    }

    /// The base's answer to `challenge`, for a request to one of the origins; `false` otherwise.
    public func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool {
        guard origins.contains(request.url.origin) else { return false }
        return try await base.respond(to: challenge, retrying: &request)
    }

    /// Tells the base of a response to one of the origins.
    public func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {
        guard origins.contains(request.url.origin) else { return }
        try base.didReceive(response, for: request)
    }
}

/// Narrowing any authentication to the origins it is for.
extension HTTPAuthentication {
    /// This authentication for requests to `origins` only (`https://api.example.com`: scheme,
    /// host and port; a path is ignored), wherever it is used: a cycle for another host gets
    /// no credentials from it and no challenge answered. An empty list, or strings that are no
    /// URLs, let it serve no origin at all.
    ///
    /// ```swift
    /// let pw = ProcessInfo.processInfo.environment["INTRANET_PASSWORD"] ?? ""
    /// try session.update { $0.authentications = [BasicAuthentication(username: "ada", password: pw).limited(to: ["https://intranet.example"])] }
    /// ```
    public func limited(to origins: [String]) -> OriginLimitedAuthentication {
        OriginLimitedAuthentication(base: self, origins: CredentialOrigins.normalized(origins))
    }
}
