/// Makes each attempt of a resumable download continue what the attempts before it wrote
/// (`Range` and `If-Range`, when the server allows it). In a download's pipeline only.
struct ResumeStage: HTTPMiddleware {
    let target: DownloadTarget

    var name: String { "resume" }

    nonisolated(nonsending) func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        try await next(target.prepare(request))
    }
}
