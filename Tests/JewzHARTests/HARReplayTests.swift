import Foundation
import JewzGzip
import JewzHAR
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// `HARReplayTransport`: a suite recorded against the Sandbox answers the same with the Sandbox
/// gone.
@Suite struct HARReplayTests {
    private static func gzip() -> ContentCodingRegistry {
        var registry = ContentCodingRegistry()
        registry.register(HTTPGzipProcessor(), for: HTTPGzipProcessor.codings)
        return registry
    }

    /// What the suite below gives, as status and text per request.
    private static func suite(_ base: String, session: HTTPSession) async throws -> [String] {
        var results: [String] = []
        func note(_ response: HTTPResponse) { results.append("\(response.statusCode) \(response.text ?? "")") }
        note(try await HTTPCycle.get(base + "/json?b=2&a=1", session: session))
        for _ in 0..<2 { note(try await HTTPCycle.get(base + "/counter?key=replay&fail=0", session: session)) }
        let upload = try HTTPCycle(base + "/dumpupload/", method: .post, session: session)
        upload.request.data = Data("posted".utf8)
        note(try await upload.start())
        note(try await HTTPCycle.get(base + "/encoded?coding=gzip&content=zipped%20&repeat=3", session: session))
        note(try await HTTPCycle.get(base + "/status/404", session: session))
        return results
    }

    /// A session on `transport` that takes any status and decodes gzip.
    private static func session(_ transport: any HTTPTransport, middleware: [any HTTPMiddleware] = []) -> HTTPSession {
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = middleware
        configuration.shouldTreatStatusCodeAsFailure = { _ in false }
        configuration.retryPolicy = .never
        configuration.contentCodings = gzip()
        configuration.customTransport = transport
        configuration.logger = quietLogger
        return HTTPSession(configuration: configuration)
    }

    /// The suite recorded against a Sandbox that is gone afterwards: its results, the archive
    /// and the Sandbox's base URL.
    private static func recorded() async throws -> (results: [String], archive: HTTPArchive, base: String) {
        let sandbox = try await Sandbox.start()
        let recorder = HARRecorder()
        let live = session(AsyncHTTPClientTransport(), middleware: [recorder])
        let results = try await suite(sandbox.baseURL, session: live)
        try await live.shutdown()
        try await sandbox.shutdown()
        return (results, try recorder.archive(), sandbox.baseURL)
    }

    @Test func aRecordedSuiteReplaysOfflineWithTheSameResults() async throws {
        let (live, archive, base) = try await Self.recorded()
        #expect(live[1] == "200 attempt 1 succeeds" && live[2] == "200 attempt 2 succeeds")
        #expect(live[4] == "200 zipped zipped zipped ")
        let offline = Self.session(HARReplayTransport(archive: archive))
        #expect(try await Self.suite(base, session: offline) == live)
        // Past the recorded answers, the last answers again; the query's order does not count.
        let third = try await HTTPCycle.get(base + "/counter?key=replay&fail=0", session: offline)
        #expect(third.text == "attempt 2 succeeds")
        let reordered = try await HTTPCycle.get(base + "/json?a=1&b=2", session: offline)
        #expect(reordered.statusCode == 200)
        try await offline.shutdown()
    }

    @Test func anUnmatchedRequestNamesTheClosestOrGoesToTheFallback() async throws {
        let (_, archive, base) = try await Self.recorded()
        let strict = Self.session(HARReplayTransport(archive: archive))
        let error = await httpError { try await HTTPCycle.get(base + "/json?c=3", session: strict) }
        let unmatched = try #require(error?.underlying as? HARError)
        #expect(unmatched.code == .unmatched)
        #expect(unmatched.closest == "GET \(base)/json?b=2&a=1")
        #expect(error?.description.contains("the closest recorded is GET") == true)
        try await strict.shutdown()
        let sandbox = try await Sandbox.start()
        let passing = Self.session(HARReplayTransport(archive: archive, fallback: AsyncHTTPClientTransport()))
        let live = try await HTTPCycle.get(sandbox.url("/hello/"), session: passing)
        #expect(live.text == "Hello World")
        try await passing.shutdown()
        try await sandbox.shutdown()
    }

    @Test func bodiesAndHeadersMatchWhenAskedAndTimingsCanBeHonoured() async throws {
        var (_, archive, base) = try await Self.recorded()
        let bodies = Self.session(HARReplayTransport(archive: archive, configuration: .init(matchesBody: true)))
        let other = try HTTPCycle(base + "/dumpupload/", method: .post, session: bodies)
        other.request.data = Data("something else".utf8)
        let error = await httpError { try await other.start() }
        #expect((error?.underlying as? HARError)?.code == .unmatched)
        let same = try HTTPCycle(base + "/dumpupload/", method: .post, session: bodies)
        same.request.data = Data("posted".utf8)
        #expect(try await same.start().text == "posted")
        try await bodies.shutdown()
        archive.log.entries[0].time = 5_000
        let slow = Self.session(HARReplayTransport(archive: archive, configuration: .init(honoursTimings: true)))
        let cycle = try HTTPCycle(base + "/json?b=2&a=1", method: .get, session: slow)
        cycle.options.timeoutForResource = .milliseconds(100)
        #expect(await httpError { try await cycle.start() }?.code == .timedOut)
        try await slow.shutdown()
    }

    @Test func aRecordedFailureIsReplayedAsOne() async throws {
        let recorder = HARRecorder()
        let live = Self.session(AsyncHTTPClientTransport(), middleware: [recorder])
        // A port held and never listening: nothing the suite starts meanwhile can take it.
        let url = try await withRefusedURL("/gone") { url in
            _ = await httpError { try await HTTPCycle.get(url, session: live) }
            return url
        }
        try await live.shutdown()
        let offline = Self.session(HARReplayTransport(archive: try recorder.archive()))
        let error = await httpError { try await HTTPCycle.get(url, session: offline) }
        #expect((error?.underlying as? HARError)?.code == .recordedFailure)
        try await offline.shutdown()
    }
}
