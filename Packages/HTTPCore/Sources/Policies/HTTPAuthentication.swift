/// Supplies credentials for a cycle: before each send and/or in answer to a `401` or `407`
/// challenge. The Auth module (`JewzAuth`) provides Basic, Digest, bearer and token-refresh kinds.
///
/// The cycle calls, for every authentication of the cycle (else of the session), in order:
/// ``authorize(_:)`` before each send (the first attempt, each retry and each redirect hop, so
/// that credentials are decided per URL); ``respond(to:retrying:)`` when the answer is a
/// challenge; ``didReceive(_:for:)`` with the response that ends the exchange.
///
/// All three are required, with no default: a misspelt method would otherwise compile into an
/// authentication that silently does nothing. One with nothing to do says so in its body.
///
/// ```swift
/// struct APIKey: HTTPAuthentication {
///     let key: String
///     func authorize(_ request: inout HTTPRequest) async throws { request.headers["X-Api-Key"] = key }
///     func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool { false }
///     func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {}
/// }
/// ```
public protocol HTTPAuthentication: Sendable {
    /// Adds credentials before a send: preemptive ones for a protection space already seen, a
    /// token refreshed first when it expired.
    ///
    /// - Throws: to fail the cycle (wrapped as ``HTTPError/Code/authentication`` unless an
    ///   ``HTTPError``), e.g. when a refresh failed.
    func authorize(_ request: inout HTTPRequest) async throws

    /// Answers a challenge: updates `request` and returns `true` to send it again, or returns
    /// `false` when this authentication cannot answer. Each authentication answers at most once
    /// per send, so a wrong password cannot loop.
    ///
    /// - Throws: as ``authorize(_:)``.
    func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool

    /// Reads the response that ended an exchange sent with this authentication's credentials
    /// (Digest's `Authentication-Info`).
    ///
    /// - Throws: to fail the cycle, e.g. when the server's proof of knowing the credentials is wrong.
    func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws
}

/// An authentication whose handshake authenticates the connection it runs on rather than one
/// request (NTLM). When ``answersWithHandshake(_:)`` is true for a challenge, the answer, each
/// further leg and the request they unlock go over one HTTP/1.1 connection kept for them and
/// closed after, and ``HTTPAuthentication/respond(to:retrying:)`` is asked again with each new
/// challenge, up to three answers in all (NTLM needs two: negotiate, then authenticate).
///
/// A transport that cannot keep a connection for them (JewzURLSession's `URLSessionTransport`, one made from
/// the caller's `HTTPClient`) fails the request with ``HTTPError/Code/invalidConfiguration``.
public protocol HTTPConnectionAuthentication: HTTPAuthentication {
    /// Whether its answer to `challenge` opens a handshake on a connection of its own.
    func answersWithHandshake(_ challenge: HTTPResponse) -> Bool
}
