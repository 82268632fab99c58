import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Logging
import Testing

/// The middleware the library ships as examples: headers, and a log with credentials redacted.
@Suite struct ShippedMiddlewareTests {
    @Test func theHeaderMiddlewareSetsFixedAndComputedHeadersWithoutOverridingTheRequests() async throws {
        let counter = Counter()
        var configuration = HTTPSession.Configuration()
        configuration.middleware = [HTTPHeaderMiddleware(["X-Client": "tests/1.0", "X-Mode": "default"])]
        configuration.networkMiddleware = [HTTPHeaderMiddleware("X-Hop") { _ in
            counter.increment()
            return "\(counter.value)"
        }]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(
                sandbox.url("/redirect-to"), parameters: ["url": "/inspect"], headers: ["X-Mode": "mine"], session: session)
            let inspection = try Inspection(response)
            #expect(inspection.values("X-Client") == ["tests/1.0"])
            #expect(inspection.values("X-Mode") == ["mine"], "the request's own header is kept")
            #expect(inspection.values("X-Hop") == ["2"], "computed again on the redirect's hop")
        }
    }

    @Test func theLoggingMiddlewareLogsEachHopWithCredentialsRedacted() async throws {
        let recorded = RecordingLogHandler.Recorded()
        let logger = Logger(label: "hops") { _ in RecordingLogHandler(lines: recorded) }
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [HTTPLoggingMiddleware(logger: logger, logsHeaders: true)]
        configuration.authentications = [PreemptiveHeader(value: "Bearer hunter2")]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let url = sandbox.url("/redirect/1").replacingOccurrences(of: "http://", with: "http://user:hunter2@")
            try await HTTPCycle.get(url, headers: ["Cookie": "id=hunter2"], session: session)
            _ = await httpError { try await HTTPCycle.get(sandbox.url("/status/418"), session: session) }
        }
        let lines = recorded.all
        #expect(lines.filter { $0.hasPrefix("→ GET") }.count == 4, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("← 302 GET http://***@127.0.0.1") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("← 200 GET") && $0.contains("/hello/") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("← 418 GET") }, "\(lines)")
        #expect(lines.contains { $0.contains("Authorization: <redacted>") }, "\(lines)")
        #expect(!lines.contains { $0.contains("hunter2") }, "\(lines)")
    }

    @Test func aLoggerBelowItsLevelCostsNoLine() async throws {
        let recorded = RecordingLogHandler.Recorded()
        var logger = Logger(label: "quiet") { _ in RecordingLogHandler(lines: recorded) }
        logger.logLevel = .warning
        try await withSandbox(configuration: .init { $0.middleware = [HTTPLoggingMiddleware(logger: logger)] }) { sandbox, session in
            try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
        }
        #expect(recorded.all.isEmpty)
    }
}
