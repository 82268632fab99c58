/// Gives each exchange the credentials of the run's authentications (the cycle's, else the
/// session's), answers a 401/407 challenge once per authentication, and lets them read the
/// response that ends the exchange (Digest's `Authentication-Info`). Never for a redirect hop
/// on another origin than the run's request: credentials stay with the origin they were given
/// for; the session's own only where its configuration lets them go
/// (``HTTPSession/Configuration-swift.struct/sendsCredentialsToAnyOrigin``). In the pipeline when
/// the run has authentications.
struct AuthenticationStage: HTTPMiddleware {
    var name: String { "authentication" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        guard request.url.origin == next.run.request.url.origin, next.run.mayAuthenticate(request.url) else {
            return try await next(request)
        }
        return try await Self.authenticated(request, with: next.run.authentications, next: next)
    }

    /// Credentials before the send, answers to a challenge, then the final response for the
    /// authentications to read.
    @inline(never)
    private static func authenticated(
        _ request: HTTPRequest, with authentications: [any HTTPAuthentication], next: HTTPNext
    ) async throws -> HTTPResponse {
        var request = request
        for authentication in authentications {
            try await CycleRun.authenticating(authentication) { try await authentication.authorize(&request) }
        }
        try request.validateForSending()
        var response = try await next(request)
        var sent = request
        // A challenge is answered by sending the request again, which a one-shot body cannot be.
        if [401, 407].contains(response.statusCode), request.hasReplayableBody {
            for authentication in authentications {
                var retry = request
                let answers = try await CycleRun.authenticating(authentication) {
                    try await authentication.respond(to: response, retrying: &retry)
                }
                guard answers else { continue }
                try retry.validateForSending()
                response = try await next(retry)
                sent = retry
                if response.statusCode != 401, response.statusCode != 407 { break }
            }
        }
        for authentication in authentications {
            try await CycleRun.authenticating(authentication) { try authentication.didReceive(response, for: sent) }
        }
        return response
    }
}
