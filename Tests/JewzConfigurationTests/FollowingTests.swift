import Configuration
import Foundation
import JewzConfiguration
import JewzHTTPCore
import JewzResilience
import JewzSandbox
import JewzTestSupport
import Logging
import Testing

/// A session following its configuration as the providers change: the change applies to the
/// calls after it, what it does not touch is kept, a bad change is refused whole.
@Suite struct FollowingTests {
    /// A session made from `provider` and following it while `body` runs.
    private func following(
        _ provider: some ConfigProvider, _ body: (HTTPSession, RecordingLogHandler.Recorded) async throws -> Void
    ) async throws {
        let recorded = RecordingLogHandler.Recorded()
        let base = HTTPSession.Configuration { $0.logger = Logger(label: "follow") { _ in RecordingLogHandler(lines: recorded) } }
        let config = ConfigReader(provider: provider)
        let session = HTTPSession(configuration: try .init(config: config, base: base))
        let follower = Task { try await session.follow(config, base: base) }
        try await waitUntil { recorded.all.contains { $0.contains("following the configuration's changes") } }
        do {
            try await body(session, recorded)
        } catch {
            follower.cancel()
            throw error
        }
        follower.cancel()
        _ = try? await follower.value
        try await session.shutdown()
    }

    @Test func aChangeAppliesAndKeepsWhatItDoesNotTouch() async throws {
        let sandbox = try await Sandbox.start()
        let provider = MutableInMemoryProvider(initialValues: [
            "retry.maximumCount": 0, "circuitBreaker.minimumCalls": 2, "circuitBreaker.openDuration": 600,
        ])
        try await following(provider) { session, recorded in
            for _ in 0..<2 { _ = await httpError { _ = try await HTTPCycle.get(sandbox.url("/status/503"), session: session) } }
            let transport = session.transport as AnyObject
            provider.setValue(3, forKey: "retry.maximumCount")
            try await waitUntil { session.configuration.retryPolicy.maximumRetryCount == 3 }
            #expect(recorded.all.contains { $0.contains("configuration changed: retry.maximumCount") }, "\(recorded.all)")
            let breaker = try #require(session.configuration.networkMiddleware.first as? CircuitBreaker)
            guard case .open = breaker.state(of: sandbox.url("")) else {
                Issue.record("the breaker was made anew by an unrelated change, and forgot its open circuit")
                return
            }
            #expect(session.transport as AnyObject === transport, "no transport key changed")

            provider.setValue(4, forKey: "timeout.connect")
            try await waitUntil { session.configuration.transport.timeouts.connect == .seconds(4) }
            #expect(session.transport as AnyObject !== transport, "a transport key changed")
        }
        try await sandbox.shutdown()
    }

    @Test func aChangeWithABadValueIsRefusedWhole() async throws {
        let provider = MutableInMemoryProvider(initialValues: ["retry.maximumCount": 1])
        try await following(provider) { session, recorded in
            provider.setValue(5, forKey: "redirects.maximum")
            provider.setValue("soon", forKey: "timeout.resource")
            try await waitUntil { recorded.all.contains { $0.contains("configuration change not applied") && $0.contains("timeout.resource") } }
            #expect(session.configuration.maximumRedirects == 10, "nothing of a refused change applies")
            #expect(session.configuration.retryPolicy.maximumRetryCount == 1)
        }
    }

    @Test func aReloadingJSONFileChangesTheTimeout() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-follow-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"timeout": {"resource": 30}}"#.utf8).write(to: file)
        let provider = try await ReloadingFileProvider<JSONSnapshot>(filePath: .init(file.path), pollInterval: .milliseconds(20))
        let polling = Task { try await provider.run() }
        try await following(provider) { session, _ in
            #expect(session.configuration.timeoutForResource == .seconds(30))
            try Data(#"{"timeout": {"resource": 2}}"#.utf8).write(to: file)
            // The provider tells a change by the file's modification time, which may not move
            // within the second the first version was written in.
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: file.path)
            try await waitUntil { session.configuration.timeoutForResource == .seconds(2) }
        }
        polling.cancel()
        _ = try? await polling.value
    }
}
