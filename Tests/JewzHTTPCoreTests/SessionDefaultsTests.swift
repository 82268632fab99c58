import Dispatch
import Foundation
import JewzHTTPCore
import JewzMocking
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Logging
import Testing

/// Marks every response it processes, to show which processors ran.
private struct MarkingProcessor: HTTPResponseProcessor {
    let mark: String
    func process(_ response: inout HTTPResponse) throws {
        response.object = mark + ":" + (response.text ?? "")
    }
}

/// Session settings a cycle inherits, and the forms that report through the session: each
/// would go unnoticed if it broke, so each has a test that fails then.
@Suite struct SessionDefaultsTests {
    @Test func theSessionsResponseProcessorsRunForCyclesWithoutTheirOwn() async throws {
        let mock = MockTransport()
        mock.stub(.get, path: "/text", headers: ["Content-Type": "application/json"], body: Data("hi".utf8))
        var configuration = HTTPSession.Configuration()
        configuration.responseProcessors = [MarkingProcessor(mark: "session")]
        configuration.customTransport = mock
        configuration.logger = quietLogger
        let session = HTTPSession(configuration: configuration)
        let inherited = try await HTTPCycle.get("https://api.example/text", session: session)
        #expect(inherited.object as? String == "session:hi")
        let own = try await HTTPCycle.get(
            "https://api.example/text", options: .init(responseProcessors: [MarkingProcessor(mark: "cycle")]), session: session)
        #expect(own.object as? String == "cycle:hi")
    }

    @Test func theSessionsResourceTimeoutBoundsARunThatSetsNone() async throws {
        try await withSandbox { sandbox, session in
            try session.update {
                $0.timeoutForResource = .milliseconds(300)
                $0.retryPolicy = .never
            }
            // The server would answer after 60 s: ending well before, timed out, is the session's doing.
            let started = ContinuousClock.now
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/echo/?delay=60"), session: session) }
            #expect(error?.code == .timedOut, "\(String(describing: error))")
            #expect(ContinuousClock.now - started < .seconds(40))
            // A request's own timeout wins over the session's.
            let patient = try await HTTPCycle.get(sandbox.url("/echo/?delay=0.5"), timeout: .seconds(30), session: session)
            #expect(patient.statusCode == 200)
        }
    }

    @Test func fakeGETAnswersWithAFileReadWhenTheRequestArrives() async throws {
        let directory = try makeScratchDirectory(prefix: "fake-get")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("logo.svg")
        try Data("<svg>first</svg>".utf8).write(to: file)
        let mock = MockTransport()
        mock.fakeGET("/logo", file: file, contentType: "image/svg+xml")
        try Data("<svg>second</svg>".utf8).write(to: file)
        let session = HTTPSession(configuration: .init { $0.processorRegistry = ProcessorRegistry(); $0.customTransport = mock; $0.logger = quietLogger })
        let response = try await HTTPCycle.get("https://cdn.example/logo", session: session)
        #expect(response.text == "<svg>second</svg>")
        #expect(response.headers["Content-Type"] == "image/svg+xml")
        try FileManager.default.removeItem(at: file)
        let missing = await httpError { try await HTTPCycle.get("https://cdn.example/logo", session: session) }
        #expect(missing != nil)
    }

    @Test func sendWithACompletionCallsBackOnceOnTheSessionsQueue() async throws {
        let mock = MockTransport()
        mock.stub(.post, path: "/items", status: 201, body: Data("made".utf8))
        let queue = DispatchQueue(label: "test.completion")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "completion")
        let session = HTTPSession(configuration: .init { $0.processorRegistry = ProcessorRegistry(); $0.customTransport = mock; $0.logger = quietLogger; $0.completionQueue = queue })
        let calls = Mutex<[(onQueue: Bool, status: Int?, error: HTTPError?)]>([])
        let returned = HTTPCycle(request: HTTPRequest(url: try #require(URL(string: "https://api.example/items")), method: .post), session: session)
        returned.start { cycle, error in
            let onQueue = DispatchQueue.getSpecific(key: key) == "completion"
            calls.withLock { $0.append((onQueue, cycle.response?.statusCode, error)) }
        }
        try await withTimeLimit(.seconds(30)) { try await waitUntil { calls.withLock { !$0.isEmpty } } }
        try await withTimeLimit(.seconds(30)) { try await waitUntil { !returned.isRunning } }
        let recorded = calls.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.first?.onQueue == true)
        #expect(recorded.first?.status == 201)
        #expect(recorded.first?.error == nil)
        #expect(returned.response?.text == "made")
    }

    /// Each retry waits at least what the policy computes, measured between the requests'
    /// arrivals: 200 ms, then twice that. (Only the lower bound is checked: a loaded machine
    /// may wake the waiting task late, never early.)
    @Test func retriesWaitTheBackoffThePolicyGives() async throws {
        let mock = MockTransport()
        let arrivals = Mutex<[ContinuousClock.Instant]>([])
        mock.stub(where: { $0.url.path == "/flaky" }) { _ in
            let count = arrivals.withLock { arrivals in
                arrivals.append(.now)
                return arrivals.count
            }
            return count < 3 ? .response(status: 503, headers: [:], body: Data()) : .response(status: 200, headers: [:], body: Data())
        }
        var policy = RetryPolicy()
        policy.baseDelay = .milliseconds(200)
        policy.backoffMultiplier = 2
        policy.jitter = 0
        let session = HTTPSession(configuration: .init { $0.customTransport = mock; $0.logger = quietLogger })
        try session.update { $0.retryPolicy = policy }
        _ = try await HTTPCycle.get("https://api.example/flaky", session: session)
        let times = arrivals.withLock { $0 }
        try #require(times.count == 3)
        let first = times[1] - times[0]
        let second = times[2] - times[1]
        #expect(first >= .milliseconds(200), "\(first)")
        #expect(second >= .milliseconds(400), "\(second)")
    }

    /// A failure's error log line carries the first 512 bytes of the body, no more.
    @Test func aFailureIsLoggedWithA512BytePreviewOfItsBody() async throws {
        let mock = MockTransport()
        mock.stub(.get, path: "/broken", status: 500, body: Data((String(repeating: "a", count: 600) + String(repeating: "b", count: 400)).utf8))
        let recorded = RecordingLogHandler.Recorded()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(lines: recorded) }
        let session = HTTPSession(configuration: .init { $0.retryPolicy = .never; $0.customTransport = mock; $0.logger = logger })
        let error = await httpError { try await HTTPCycle.get("https://api.example/broken", session: session) }
        #expect(error?.statusCode == 500)
        let line = try #require(recorded.all.first { $0.contains("\"body\"") }, "\(recorded.all)")
        #expect(line.contains(String(repeating: "a", count: 512)))
        #expect(!line.contains(String(repeating: "a", count: 513)))
        #expect(!line.contains("ab"), "no byte past the 512th")
    }
}
