import Foundation

/// Follows redirects by the session's policy, each hop an exchange of its own through the
/// stages below: the cycle's job rather than the transport's, so that every transport applies
/// one policy (limit, loops, https → http, credentials kept to their origin). In the pipeline
/// when the session follows redirects.
struct RedirectStage: HTTPMiddleware {
    var name: String { "redirects" }

    /// - Throws: ``HTTPError/Code/tooManyRedirects`` past the session's `maximumRedirects`;
    ///   ``HTTPError/Code/redirectLoop`` when a request comes back to a URL it visited;
    ///   ``HTTPError/Code/insecureRedirect``; ``HTTPError/Code/bodyNotReplayable`` for a 307/308
    ///   that would resend a one-shot body; ``HTTPError/Code/invalidResponse`` for a `Location`
    ///   that is not an http(s) URL.
    // Inlined into its protocol witness, so that the stage is one async frame rather than two:
    // each frame is allocated for every request, and touched again, cold, when its response comes.
    @inline(__always)
    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        let response = try await next(request)
        guard HTTPResponse.isRedirect(statusCode: response.statusCode, headers: response.headers), next.options.redirects != .never else {
            return response
        }
        return try await Self.follow(from: response, of: request, next: next)
    }

    @inline(never)
    nonisolated(nonsending) private static func follow(
        from first: HTTPResponse, of request: HTTPRequest, next: HTTPNext
    ) async throws -> HTTPResponse {
        let settings = next.call.settings
        var response = first
        var request = request
        var visited: Set<String> = [visitKey(of: request)]
        var followed = 0
        while HTTPResponse.isRedirect(statusCode: response.statusCode, headers: response.headers) {
            followed += 1
            guard followed <= settings.configuration.maximumRedirects else {
                throw HTTPError.tooManyRedirects(limit: settings.configuration.maximumRedirects)
            }
            let hop = try redirectedRequest(
                after: response, of: request, allowsInsecure: settings.configuration.allowsInsecureRedirects,
                keepingCredentials: settings.configuration.sendsCredentialsAcrossRedirects, credentialFields: next.call.credentialFields)
            if next.options.redirects == .withinOrigin, hop.url.origin != next.call.request.url.origin { return response }
            request = hop
            guard visited.insert(visitKey(of: request)).inserted else {
                throw HTTPError.redirectLoop(url: request.url.redactedString)
            }
            try request.validateForSending()
            next.configuration.logger.debug("redirect \(response.statusCode) → \(request.method) \(request.url.redactedString)")
            response = try await next(request)
        }
        return response
    }

    /// What identifies a step of a redirect chain: the same method on the same URL twice is a loop.
    private static func visitKey(of request: HTTPRequest) -> String {
        "\(request.method.rawValue) \(request.url.absoluteString)"
    }

    /// The request a redirect asks for (RFC 9110 §15.4): 303 turns any method but HEAD into a
    /// GET without a body, and so do 301 and 302 after a POST (as every browser and client
    /// does); 307 and 308 keep method and body. Credentials and cookies stay with their origin
    /// unless `keepingCredentials`: a hop to another origin loses the fields that carry them,
    /// `credentialFields` (those the request processors set) among them.
    static func redirectedRequest(
        after response: HTTPResponse, of request: HTTPRequest, allowsInsecure: Bool, keepingCredentials: Bool = false,
        credentialFields: [String] = []
    ) throws -> HTTPRequest {
        let location = response.headers["Location"] ?? ""
        guard let resolved = URL(string: location, relativeTo: request.url)?.absoluteURL,
            var target = URLComponents(url: resolved, resolvingAgainstBaseURL: false),
            let scheme = target.scheme?.lowercased(), ["http", "https", "http+unix", "https+unix"].contains(scheme),
            target.host?.isEmpty == false
        else {
            throw HTTPError.invalidResponse(reason: "the redirect's Location \"\(location)\" is not an http or https URL")
        }
        // A redirect never leads to a Unix domain socket: a server could reach local daemons
        // through it. Within the socket a request is on already, it may.
        if resolved.isUnixSocketURL, resolved.origin != request.url.origin {
            throw HTTPError.invalidResponse(reason: "the redirect's Location \"\(location)\" leads to a Unix domain socket")
        }
        if request.url.scheme?.lowercased() == "https", scheme == "http", !allowsInsecure {
            throw HTTPError.insecureRedirect(from: request.url.redactedString, to: resolved.redactedString)
        }
        // A Location without a fragment keeps the request's (RFC 9110 §10.2.2).
        if target.fragment == nil, let fragment = request.url.fragment { target.fragment = fragment }
        var next = request
        next.url = target.url ?? resolved
        let status = response.statusCode
        if (status == 303 && request.method != .head) || ((status == 301 || status == 302) && request.method == .post) {
            next.method = .get
            next.body = nil
            next.object = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] { next.headers.remove(name) }
        } else if next.body != nil, !request.hasReplayableBody {
            throw HTTPError.bodyNotReplayable
        }
        if request.url.origin != next.url.origin {
            next.headers.remove("Host")
            if !keepingCredentials {
                let carrying = next.headers.fields.lazy.map(\.name).filter(HTTPHeaderFields.isCredentialField)
                for name in Array(carrying) + credentialFields { next.headers.remove(name) }
            }
        }
        return next
    }
}
