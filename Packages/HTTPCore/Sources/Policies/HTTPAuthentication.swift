/// Supplies credentials for a cycle: up front (preemptively) and/or in answer to a `401`
/// or `407` challenge. The Auth module provides Basic, Digest, bearer and token-refresh kinds.
public protocol HTTPAuthentication: Sendable {
    /// Adds credentials before the first send. The default adds nothing.
    func authorize(_ request: inout HTTPRequest) throws

    /// Answers a challenge: updates `request` and returns `true` to send it again, or returns
    /// `false` when this authentication cannot answer. Each authentication answers at most once
    /// per send, so a wrong password cannot loop. The default declines.
    func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) throws -> Bool
}

extension HTTPAuthentication {
    public func authorize(_ request: inout HTTPRequest) throws {}

    public func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) throws -> Bool {
        false
    }
}
