import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// A download cut off midway goes on inside its one body: what every middleware above the
/// resume stage sees is the whole body, as the file receives it.
@Suite struct DownloadContinuationTests {
    /// Retries after a lost connection, quickly, up to ten.
    private static var retryingLostConnections: RetryPolicy {
        var policy = RetryPolicy()
        policy.baseDelay = .milliseconds(1)
        policy.maximumRetryCount = 10
        policy.shouldRetry = { attempt in if case .connectionLost = attempt.error { true } else { nil } }
        return policy
    }

    @Test func aMiddlewareSeesADownloadsWholeBodyAcrossCuts() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("kept")
        let seen = Mutex((responses: 0, body: Data()))
        let watcher = HTTPClosureMiddleware("watcher") { request, next in
            var response = try await next(request)
            seen.withLock { $0.responses += 1 }
            response.body = response.body
                .map { chunk in
                    seen.withLock { $0.body.append(chunk) }
                    return chunk
                }
                .withTrailers { ["X-Body-Length": "\(seen.withLock { $0.body.count })"] }
            return response
        }
        try await withSandbox(configuration: .init { $0.middleware = [watcher] }) { sandbox, session in
            // Every answer closes after 300 000 body bytes: only continuing can finish 1 000 000.
            let cycle = try HTTPCycle(sandbox.url("/download/1000000?drop=300000"), method: .get, session: session)
            cycle.options.retryPolicy = Self.retryingLostConnections
            cycle.delivery = .download(keepingDownload(in: directory, kept: kept))
            let response = try await cycle.start()
            #expect(cycle.retryCount >= 3)
            #expect(response.statusCode == 200)
            #expect(response.headers["X-Body-Length"] == "1000000")
        }
        let watched = seen.withLock { $0 }
        #expect(watched.responses == 1)
        #expect(watched.body == SandboxStreams.pattern(0..<1_000_000))
        #expect(try Data(contentsOf: kept) == SandboxStreams.pattern(0..<1_000_000))
    }

    @Test func aContinuationAnsweredWholeFailsTheDownloadAndKeepsWhatWasWritten() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Below the resume stage: the request for the rest finds the resource changed.
        let changing = HTTPClosureMiddleware("changing") { request, next in
            guard request.headers.contains("Range"), var components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
                return try await next(request)
            }
            components.queryItems = [URLQueryItem(name: "version", value: "2")]
            var changed = request
            changed.url = try #require(components.url)
            return try await next(changed)
        }
        try await withSandbox(configuration: .init { $0.networkMiddleware = [changing] }) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/500000?drop=200000"), method: .get, session: session)
            cycle.options.retryPolicy = Self.retryingLostConnections
            cycle.delivery = .download(keepingDownload(in: directory, kept: directory.appendingPathComponent("kept"), resumable: true))
            let error = await httpError { try await cycle.start() }
            #expect(error?.code == .downloadNotResumable)
            let resumeData = try #require(error?.resumeData)
            #expect(resumeData.bytesWritten > 0 && resumeData.bytesWritten <= 200_000)
            #expect(try Data(contentsOf: resumeData.partialFile) == SandboxStreams.pattern(0..<resumeData.bytesWritten))
        }
    }

    @Test func aDownloadWithoutAValidatorIsNotContinuedAndFailsAsCut() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let attempts = Mutex(0)
        let counting = HTTPClosureMiddleware("counting") { request, next in
            attempts.withLock { $0 += 1 }
            return try await next(request)
        }
        try await withSandbox(configuration: .init { $0.networkMiddleware = [counting] }) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/500000?drop=200000&validator=none"), method: .get, session: session)
            cycle.options.retryPolicy = Self.retryingLostConnections
            cycle.delivery = .download(keepingDownload(in: directory, kept: directory.appendingPathComponent("kept")))
            let error = await httpError { try await cycle.start() }
            #expect(error?.code == .connectionLost)
            #expect(cycle.retryCount == 0)
            #expect(attempts.withLock { $0 } == 1)
        }
        #expect(contents(of: directory).isEmpty)
    }
}
