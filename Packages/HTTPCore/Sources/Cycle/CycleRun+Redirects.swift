import Foundation

// Following redirects: the cycle's job rather than the transport's, so that every transport
// applies one policy (limit, loops, https → http, credentials kept to their origin).
extension CycleRun {
    /// Follows the redirects that start with `first`, the answer to `request`, until a
    /// response is not one.
    ///
    /// - Throws: ``HTTPError/Code/tooManyRedirects`` past the session's `maximumRedirects`;
    ///   ``HTTPError/Code/redirectLoop`` when a request comes back to a URL it visited;
    ///   ``HTTPError/Code/insecureRedirect``; ``HTTPError/Code/bodyNotReplayable`` for a 307/308
    ///   that would resend a one-shot body; ``HTTPError/Code/invalidResponse`` for a `Location`
    ///   that is not an http(s) URL.
    @inline(never)
    func followRedirects(from first: ReceivedResponse, of request: HTTPRequest) async throws -> ReceivedResponse {
        let configuration = session.configuration
        var received = first
        let firstOrigin = Self.origin(of: request.url)
        var request = request
        var visited: Set<String> = [Self.visitKey(of: request)]
        var followed = 0
        while HTTPResponse.isRedirect(statusCode: received.response.statusCode, headers: received.response.headers) {
            followed += 1
            guard followed <= configuration.maximumRedirects else {
                throw HTTPError.tooManyRedirects(limit: configuration.maximumRedirects)
            }
            request = try Self.redirectedRequest(
                after: received.response, of: request, allowsInsecure: configuration.allowsInsecureRedirects)
            guard visited.insert(Self.visitKey(of: request)).inserted else {
                throw HTTPError.redirectLoop(url: request.url.redactedString)
            }
            try request.validateForSending()
            session.logger.debug("redirect \(received.response.statusCode) → \(request.method) \(request.url.redactedString)")
            // The authentications speak only to the origin they were given for.
            let sameOrigin = Self.origin(of: request.url) == firstOrigin
            received = try await sameOrigin ? answeringChallenges(request) : sendOnce(request)
        }
        return received
    }

    /// What identifies a step of a redirect chain: the same method on the same URL twice is a loop.
    private static func visitKey(of request: HTTPRequest) -> String {
        "\(request.method.rawValue) \(request.url.absoluteString)"
    }

    /// The request a redirect asks for (RFC 9110 §15.4): 303 turns any method but HEAD into a
    /// GET without a body, and so do 301 and 302 after a POST (as every browser and client
    /// does); 307 and 308 keep method and body. Credentials and cookies stay with their origin.
    static func redirectedRequest(after response: HTTPResponse, of request: HTTPRequest, allowsInsecure: Bool) throws -> HTTPRequest {
        let location = response.headers["Location"] ?? ""
        guard let resolved = URL(string: location, relativeTo: request.url)?.absoluteURL,
            var target = URLComponents(url: resolved, resolvingAgainstBaseURL: false),
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host?.isEmpty == false
        else {
            throw HTTPError.invalidResponse(reason: "the redirect's Location \"\(location)\" is not an http or https URL")
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
        if origin(of: request.url) != origin(of: next.url) {
            for name in ["Authorization", "Proxy-Authorization", "Cookie", "Host"] { next.headers.remove(name) }
        }
        return next
    }

    /// Scheme, host and port, the default port written out: what credentials are bound to.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
