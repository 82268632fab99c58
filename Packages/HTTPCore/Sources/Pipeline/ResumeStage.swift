/// Makes each attempt of a resumable download continue what the attempts before it wrote
/// (`Range` and `If-Range`, when the server allows it), and writes each attempt's body to the
/// download's file as it is read — inside the attempt, so that a body cut off midway is retried
/// from where it stopped. In a download's pipeline only.
struct ResumeStage: HTTPMiddleware {
    let target: DownloadTarget

    var name: String { "resume" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var response = try await next(target.prepare(request))
        guard response.body.isStream else { return response }
        let trailers = try await target.write(response.body, of: response)
        for field in trailers { response.headers.add(field.value, for: field.name) }
        response.body = HTTPResponseBody(.delivered)
        return response
    }
}
