import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// A cache of one's own, written against ``HTTPResponseCache`` alone: it keeps the last body
/// it saw — copied from the stream as the run reads it, or taken from `data` — and answers
/// the next request for the same URL with it.
final class LastBodyCache: HTTPResponseCache {
    private let kept = Mutex<(url: URL, body: Data)?>(nil)
    /// Whether each answer from the network came with its body in a stream.
    let streamed = Mutex<[Bool]>([])

    func response(
        for request: HTTPRequest, caching: HTTPRequestOptions.Caching, session: HTTPSession, network: (HTTPRequest) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        if let (url, body) = kept.withLock({ $0 }), url == request.url {
            var answer = HTTPResponse(statusCode: 200, headers: ["Content-Length": String(body.count)], body: HTTPResponseBody(body), url: url)
            answer.source = .cache
            return answer
        }
        var response = try await network(request)
        streamed.withLock { $0.append(response.body.isStream) }
        guard response.body.isStream else {
            kept.withLock { $0 = (request.url, response.data) }
            return response
        }
        let copy = Mutex(Data())
        response.body = response.body
            .map { chunk in
                copy.withLock { $0.append(chunk) }
                return chunk
            }
            .whenFinished { [self] error in
                guard error == nil else { return }
                kept.withLock { $0 = (request.url, copy.withLock { $0 }) }
            }
        return response
    }
}

@Suite struct ResponseCacheTests {
    /// The one method sees a download's body as a stream, copies it as the run writes it to
    /// the file, and the next download lands the copy it gives back in its own file.
    @Test func aCacheOfOnesOwnCopiesADownloadAsItIsReadAndAnswersTheNext() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = LastBodyCache()
        var configuration = HTTPSession.Configuration()
        configuration.cache = cache
        try await withSandbox(configuration: configuration) { sandbox, session in
            let expected = SandboxStreams.pattern(0..<300_000)
            for name in ["first", "second"] {
                let kept = directory.appendingPathComponent(name)
                let cycle = try HTTPCycle(sandbox.url("/download/300000"), method: .get, session: session)
                cycle.delivery = .download(keepingDownload(in: directory, kept: kept))
                let response = try await cycle.start()
                #expect(response.source == (name == "first" ? .network : .cache))
                #expect(try Data(contentsOf: kept) == expected, "\(name)")
            }
            let inMemory = try await session.send(HTTPRequest(url: try #require(URL(string: sandbox.url("/download/1000")))))
            #expect(inMemory.data == SandboxStreams.pattern(0..<1000))
        }
        #expect(cache.streamed.withLock { $0 } == [true, false], "a download's body streams; one bound for memory comes in data")
    }
}
