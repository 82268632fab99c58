import Foundation
import JewzHTTPCore
import JewzMocking
import JewzSandbox
import JewzTestSupport
import Logging
import Testing

/// Transport settings are part of the session's one configuration: an update makes a new
/// transport for what starts after it, and what is under way finishes on its own.
@Suite struct TransportUpdateTests {
    @Test(.timeLimit(.minutes(1))) func newTransportSettingsApplyToTheNextRequestsAndSpareThoseUnderWay() async throws {
        let sandbox = try await Sandbox.start()
        let session = HTTPSession()
        let before = session.transport as AnyObject
        let held = URL(string: sandbox.url("/counter?key=under-way&fail=0&hold=1"))!
        let underWay = Task { try await session.send(HTTPRequest(url: held), options: .init(retryPolicy: .never)) }
        try await waitUntil { sandbox.router.requestCount(forKey: "under-way") > 0 }
        // An idle timeout shorter than the server's hold: the next request times out.
        try session.update { $0.transport.timeouts.idle = .milliseconds(200) }
        #expect(session.transport as AnyObject !== before)
        #expect(session.configuration.transport.timeouts.idle == .milliseconds(200))
        let next = URL(string: sandbox.url("/counter?key=next&fail=0&hold=1"))!
        let error = await httpError { _ = try await session.send(HTTPRequest(url: next), options: .init(retryPolicy: .never)) }
        #expect(error?.code == .timedOut)
        // The request under way kept the transport it started on, and its 60 s idle timeout.
        #expect(try await underWay.value.text == "attempt 1 succeeds")
        try await session.shutdown()
        try await sandbox.shutdown()
    }

    @Test func aSessionGivenItsTransportRefusesNewTransportSettings() throws {
        let session = HTTPSession(configuration: .init { $0.customTransport = MockTransport() })
        let error = #expect(throws: HTTPError.self) {
            try session.update { $0.transport.timeouts.connect = .seconds(1) }
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("has a custom transport") == true)
        #expect(session.configuration.transport.timeouts.connect == .seconds(10), "nothing changed")
        // Other settings still change.
        try session.update { $0.followsRedirects = false }
        #expect(!session.configuration.followsRedirects)
    }

    @Test func aSessionKeepsTheTransportItWasMadeWith() throws {
        for session in [HTTPSession(), HTTPSession(configuration: .init { $0.customTransport = MockTransport() })] {
            let before = session.transport as AnyObject
            let error = #expect(throws: HTTPError.self) {
                try session.update { $0.customTransport = MockTransport() }
            }
            #expect(error?.code == .invalidConfiguration)
            #expect(error?.description.contains("make a new session") == true)
            #expect(session.transport as AnyObject === before)
        }
    }

    @Test func theLoggerAndTheCompletionQueueChangeWithTheConfiguration() throws {
        let session = HTTPSession(configuration: .init { $0.customTransport = MockTransport() })
        let own = session.completionQueue
        let queue = DispatchQueue(label: "test.completion")
        try session.update {
            $0.completionQueue = queue
            $0.logger = Logger(label: "test.logger")
        }
        #expect(session.completionQueue === queue)
        #expect(session.logger.label == "test.logger")
        try session.update { $0.completionQueue = nil }
        #expect(session.completionQueue === own, "the session's own queue again")
    }

    @Test func aSessionShutDownStaysShutWhenItsTransportSettingsChange() async throws {
        let sandbox = try await Sandbox.start()
        let session = HTTPSession()
        try await session.shutdown()
        try session.update { $0.transport.timeouts.connect = .seconds(5) }
        let error = await httpError { _ = try await session.send(HTTPRequest(url: URL(string: sandbox.url("/hello/"))!)) }
        #expect(error?.code == .sessionShutDown)
        try await sandbox.shutdown()
    }
}
