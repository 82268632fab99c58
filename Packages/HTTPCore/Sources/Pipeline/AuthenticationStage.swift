/// Gives each exchange the credentials of the call's authentications (the options', else the
/// session's), answers a 401/407 challenge once per authentication, and lets them read the
/// response that ends the exchange (Digest's `Authentication-Info`). Never for a redirect hop
/// on another origin than the run's request (``HTTPNext/mayCarryCredentials(to:)``):
/// credentials stay with the origin they were given for; the session's own only where its
/// configuration lets them go (``HTTPSession/Configuration-swift.struct/sendsCredentialsToAnyOrigin``).
/// In the pipeline when the run has authentications.
struct AuthenticationStage: HTTPMiddleware {
    var name: String { "authentication" }

    /// The most answers one handshake gets, so that a server that keeps challenging cannot loop.
    static let maximumHandshakeLegs = 3

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        guard next.mayCarryCredentials(to: request.url), next.call.mayAuthenticate(request.url) else {
            return try await next(request)
        }
        return try await Self.authenticated(request, with: next.call.authentications, next: next)
    }

    /// Credentials before the send, answers to a challenge, then the final response for the
    /// authentications to read.
    @inline(never)
    private static func authenticated(
        _ request: HTTPRequest, with authentications: [any HTTPAuthentication], next: HTTPNext
    ) async throws -> HTTPResponse {
        var request = request
        for authentication in authentications {
            try await HTTPCall.authenticating(authentication) { try await authentication.authorize(&request) }
        }
        try request.validateForSending()
        var response = try await next(request)
        var sent = request
        // A challenge is answered by sending the request again, which a one-shot body cannot be.
        if [401, 407].contains(response.statusCode), request.hasReplayableBody {
            for authentication in authentications {
                var retry = request
                let handshake = (authentication as? any HTTPConnectionAuthentication)?.answersWithHandshake(response) ?? false
                let answers = try await HTTPCall.authenticating(authentication) {
                    try await authentication.respond(to: response, retrying: &retry)
                }
                guard answers else { continue }
                try retry.validateForSending()
                if handshake {
                    (response, sent) = try await Self.handshake(opening: retry, with: authentication, next: next)
                } else {
                    response = try await next(retry)
                    sent = retry
                }
                if response.statusCode != 401, response.statusCode != 407 { break }
            }
        }
        for authentication in authentications {
            try await HTTPCall.authenticating(authentication) { try authentication.didReceive(response, for: sent) }
        }
        return response
    }

    /// A handshake's legs from its first answer, all on one connection kept for them, until the
    /// answer is no longer a challenge, the authentication stops answering, or it has answered
    /// ``maximumHandshakeLegs`` times. Returns the last response and the request that got it.
    @inline(never)
    private static func handshake(
        opening first: HTTPRequest, with authentication: any HTTPAuthentication, next: HTTPNext
    ) async throws -> (HTTPResponse, HTTPRequest) {
        let connection = DedicatedConnection()
        var request = first
        request.dedicatedConnection = connection
        do {
            var response = try await next(request)
            var legs = 1
            while legs < maximumHandshakeLegs, response.statusCode == 401 || response.statusCode == 407 {
                var retry = request
                let answers = try await HTTPCall.authenticating(authentication) {
                    try await authentication.respond(to: response, retrying: &retry)
                }
                guard answers else { break }
                try retry.validateForSending()
                response = try await next(retry)
                request = retry
                legs += 1
            }
            request.dedicatedConnection = nil
            // A body still arriving keeps the connection until it ends.
            response.whenBodyEnds { _ in connection.close() }
            return (response, request)
        } catch {
            connection.close()
            throw error
        }
    }
}
