import Foundation
import Synchronization
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// Cancelling a session's cycles by method and path, and all at once, while the Sandbox holds
/// their requests (it would answer after 30 seconds).
@Suite struct SessionCancelTests {
    @Test(arguments: TransportKind.allCases) func cyclesAreCancelledByMethodAndPathThenAll(transport: TransportKind) async throws {
        let sandbox = try await Sandbox.start()
        var configuration = HTTPSession.Configuration()
        configuration.baseURL = URL(string: sandbox.url("/"))
        configuration.customTransport = try transport.make(configuration)
        configuration.logger = quietLogger
        let session = HTTPSession(configuration: configuration)
        func send(_ method: HTTPMethod, key: String) -> Task<Void, any Error> {
            Task {
                _ = try await HTTPCycle.Sender(method)(
                    "/counter", parameters: ["key": .init(key), "fail": 0, "hold": 30], options: .init(retryPolicy: .never), session: session)
            }
        }
        let gets = (0..<3).map { _ in send(.get, key: "get") }
        let posts = (0..<2).map { _ in send(.post, key: "post") }
        // A caller with a completion handler hears of a session-wide cancel too.
        let heard = Mutex<[HTTPError?]>([])
        let withHandler = try HTTPCycle(
            "/counter", method: .get, parameters: ["key": "handler", "fail": 0, "hold": 30], options: .init(retryPolicy: .never), session: session)
        withHandler.start { _, error in heard.withLock { $0.append(error) } }
        try await withTimeLimit(.seconds(60)) {
            try await waitUntil {
                sandbox.router.requestCount(forKey: "get") >= 3 && sandbox.router.requestCount(forKey: "post") >= 2
                    && sandbox.router.requestCount(forKey: "handler") >= 1
            }
        }
        #expect(session.runningCalls.count == 6)
        #expect(session.cancelCalls(method: .get, path: "/elsewhere") == 0)
        #expect(session.cancelCalls(method: .delete, path: "/counter") == 0)
        // An absolute path names its origin: the same host on another port is not it.
        #expect(session.cancelCalls(path: "http://127.0.0.1:1/counter") == 0)
        #expect(session.cancelCalls(method: .get, path: "counter") == 4)
        for task in gets {
            let error = await httpError { try await task.value }
            #expect(error?.code == .cancelled)
        }
        try await withTimeLimit(.seconds(60)) { try await waitUntil { heard.withLock { $0.count } == 1 } }
        #expect(heard.withLock { $0.first??.code } == .cancelled)
        #expect(session.runningCalls.count == 2)
        #expect(session.cancelAllCalls() == 2)
        for task in posts {
            #expect(await httpError { try await task.value }?.code == .cancelled)
        }
        #expect(session.runningCalls.isEmpty)
        try await session.shutdown()
        try await sandbox.shutdown()
    }
}

extension SessionCancelTests {
    /// `cancelAllCalls` reaches every `send` wherever it is: on the wire, waiting in a paused
    /// queue, waiting out a retry's backoff, and with its streamed body being read.
    @Test(.timeLimit(.minutes(1))) func cancellingAllCallsReachesSendsWhereverTheyWait() async throws {
        try await withSandbox { sandbox, session in
            let url: @Sendable (String) -> URL = { path in URL(string: sandbox.url(path))! }
            let onWire = Task {
                try await session.send(HTTPRequest(url: url("/counter?key=wire&fail=0&hold=30")), options: .init(retryPolicy: .never))
            }
            var patient = RetryPolicy()
            patient.baseDelay = .seconds(30)
            patient.jitter = 0
            let backingOff = Task {
                try await session.send(HTTPRequest(url: url("/counter?key=backoff&fail=3")), options: .init(retryPolicy: patient))
            }
            let streamed = try await session.stream(HTTPRequest(url: url("/download/\(1 << 30)")))
            try await waitUntil {
                sandbox.router.requestCount(forKey: "wire") == 1 && sandbox.router.requestCount(forKey: "backoff") == 1
                    && session.runningCalls.count == 3
            }
            session.pause()
            let queued = Task { try await session.send(HTTPRequest(url: url("/counter?key=queued&fail=0"))) }
            try await waitUntil { session.pendingCalls.count == 1 }
            #expect(session.runningCalls.count == 4)

            #expect(session.cancelAllCalls() == 4)
            #expect(await Self.failure(of: onWire) == .cancelled)
            #expect(await Self.failure(of: backingOff) == .cancelled)
            #expect(await Self.failure(of: queued) == .cancelled)
            #expect(await Self.failure(reading: streamed) == .cancelled)
            try await waitUntil { session.runningCalls.isEmpty }
            session.resume()
            #expect(sandbox.router.requestCount(forKey: "queued") == 0, "the queued send never reached the server")
            #expect(sandbox.router.requestCount(forKey: "backoff") == 1, "no retry after the cancel")
        }
    }

    private static func failure(of task: Task<HTTPResponse, any Error>) async -> HTTPError.Code? {
        do {
            _ = try await task.value
            return nil
        } catch {
            return (error as? HTTPError)?.code
        }
    }

    private static func failure(reading response: HTTPStreamedResponse) async -> HTTPError.Code? {
        do {
            for try await _ in response.body {}
            return nil
        } catch {
            return (error as? HTTPError)?.code
        }
    }

    /// A call found through the session stops at once and says so.
    @Test(.timeLimit(.minutes(1))) func aCallFoundThroughTheSessionCancelsItsSend() async throws {
        try await withSandbox { sandbox, session in
            let held = Task {
                try await session.send(HTTPRequest(url: URL(string: sandbox.url("/counter?key=found&fail=0&hold=30"))!))
            }
            try await waitUntil { sandbox.router.requestCount(forKey: "found") == 1 }
            let call = try #require(session.runningCalls.first)
            #expect(call.request.url.path == "/counter")
            call.cancel(explicitly: true)
            let error = await httpError { _ = try await held.value }
            #expect(error?.code == .cancelled)
            #expect(error?.isExplicitCancellation == true)
        }
    }
}

/// #27: cancelling a thousand cycles in flight at once leaves nothing behind. Heavy: runs
/// alone (`JEWZ_HEAVY_TESTS=1 swift test --filter Heavy`, as `.ci/run` does).
@Suite(.enabled(if: heavyTestsEnabled)) struct HeavyMassCancelTests {
    @Test func cancellingAThousandCyclesClosesEveryConnection() async throws {
        try await withSandbox { sandbox, session in
            let tasks = (0..<1_000).map { _ in
                Task {
                    _ = try await HTTPCycle.get(
                        sandbox.url("/counter"), parameters: ["key": "mass", "fail": 0, "hold": 30], options: .init(retryPolicy: .never), session: session)
                }
            }
            // The transport's 256 connections carry as many; the rest wait in its pool.
            try await withTimeLimit(.seconds(60)) {
                try await waitUntil { sandbox.router.requestCount(forKey: "mass") >= 256 && session.runningCalls.count >= 1_000 }
            }
            #expect(session.runningCalls.count == 1_000)
            #expect(session.cancelAllCalls() == 1_000)
            for task in tasks {
                #expect(await httpError { try await task.value }?.code == .cancelled)
            }
            #expect(session.runningCalls.isEmpty)
            // Every connection that carried a held request is closed; what stays open are
            // connections the pool had opened for requests that were cancelled before they
            // got one, idle and kept for reuse like any other.
            let held = sandbox.router.requestCount(forKey: "mass")
            #expect(held >= 256 && held <= 1_000)
            try await withTimeLimit(.seconds(60)) {
                try await waitUntil { sandbox.openConnectionCount <= sandbox.connectionCount - held }
            }
            try await expectSessionStillWorks(session)
        }
    }
}
