import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Logging
import Testing

@Suite struct LoggingTests {
    @Test func credentialsNeverReachTheLog() async throws {
        let sandbox = try await Sandbox.start()
        let recorded = RecordingLogHandler.Recorded()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(lines: recorded) }
        let session = HTTPSession(configuration: .init { $0.logger = logger })
        try session.update { $0.retryPolicy = .never }
        let port = sandbox.url("/").split(separator: ":")[2].prefix { $0.isNumber }
        let target = "http://127.0.0.1:\(port)/status/500"
        for url in ["http://user:hunter2@127.0.0.1:\(port)/redirect-to?url=\(target)", "http://user:hunter2@[::1/x"] {
            let cycle = try? HTTPCycle(url, method: .get, session: session)
            cycle?.request.headers = ["Authorization": "Bearer hunter2", "Cookie": "id=hunter2", "Proxy-Authorization": "Basic hunter2"]
            _ = try? await cycle?.start()
            _ = await httpError { try await HTTPCycle.get(url, session: session) }
        }
        try await session.shutdown()
        try await sandbox.shutdown()
        let lines = recorded.all
        #expect(lines.contains { $0.contains("500") }, "the failure was logged: \(lines)")
        #expect(lines.contains { $0.contains("***@127.0.0.1") }, "\(lines)")
        #expect(!lines.contains { $0.contains("hunter2") }, "\(lines)")
    }

    @Test(arguments: [
        ("http://a:b@host/p?q#f", "http://***@host/p?q#f"), ("https://host/a@b", "https://host/a@b"),
        ("http://user@host:80", "http://***@host:80"), ("not a url", "not a url"),
    ])
    func redaction(_ text: String, _ expected: String) {
        #expect(HTTPError.invalidURL(text).description.contains(expected))
    }
}
