/// Makes a download's attempts continue what its file holds (`Range` and `If-Range`, when the
/// server allows it), and hands the body up as one that goes on where a cut-off connection
/// stopped it (``ContinuedBody``): every stage above, a user's middleware among them, sees the
/// download's whole body, and the call writes it to the file. In a download's pipeline only.
struct ResumeStage: HTTPMiddleware {
    let target: DownloadTarget

    var name: String { "resume" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var response = try await next(target.prepare(request))
        // A body kept in memory (a failing status, a redirect to follow) is not the download's.
        guard response.body.isStream, !next.configuration.keepsBodyInMemory(of: response) else { return response }
        try target.accept(response)
        let body = ContinuedBody(response.body, request: request, next: next, target: target)
        response.body = HTTPResponseBody(reader: .init(body))
        return response
    }
}
