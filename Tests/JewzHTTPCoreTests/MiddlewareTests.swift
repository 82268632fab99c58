import Foundation
import JewzCookies
import JewzHTTPCore
import JewzMocking
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// What middleware saw, in order.
final class Trail: Sendable {
    private let entries = Mutex<[String]>([])

    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }

    /// A middleware that records each request's path as `name path`, then passes it on.
    func recorder(_ name: String) -> HTTPClosureMiddleware {
        HTTPClosureMiddleware(name) { request, next in
            self.record("\(name) \(request.url.path)")
            return try await next(request)
        }
    }
}

/// Records the stages each cycle's requests entered.
final class StageMonitor: HTTPEventMonitor {
    private let stages = Mutex<[String]>([])

    func call(_ call: HTTPCall, didEmit event: HTTPEvent) {
        if case .stageEntered(let name, _) = event { stages.withLock { $0.append(name) } }
    }

    var entered: [String] { stages.withLock { $0 } }
}

/// The request path as a chain of middleware (#37): its order, where users' steps run, and
/// what they may do — short-circuit, throw, call `next` twice, read the body.
@Suite struct MiddlewareTests {
    @Test func theOrderIsOneListAndHoldsOnlyWhatIsConfigured() throws {
        let plain = HTTPSession(configuration: .init { $0.customTransport = MockTransport() })
        #expect(plain.stageNames == ["retry", "redirects", "transport"])
        let trail = Trail()
        let configured = HTTPSession(
            configuration: try .init { configuration in
                configuration.middleware = [trail.recorder("app")]
                configuration.networkMiddleware = [trail.recorder("net")]
                configuration.authentications = [ChallengeAnsweringBasic(user: "u", password: "p")]
                configuration.cookieJar = try HTTPCookieJar()
                configuration.coalescesIdenticalGETs = true
                configuration.customTransport = MockTransport()
            })
        #expect(configured.stageNames == [
            "app", "retry", "redirects", "authentication", "cookies", "net", "coalescing", "transport",
        ])
        try configured.update { $0.followsRedirects = false }
        #expect(!configured.stageNames.contains("redirects"))
        configured.pause()
        #expect(configured.stageNames.suffix(2) == ["queue", "transport"], "a paused session's new runs wait in the queue")
        configured.resume()
        try configured.update { $0.maximumActiveRequests = 4 }
        #expect(configured.stageNames.suffix(2) == ["queue", "transport"])
    }

    @Test func aRequestGoesThroughTheStagesInOrder() async throws {
        let trail = Trail()
        let monitor = StageMonitor()
        var configuration = HTTPSession.Configuration()
        configuration.middleware = [trail.recorder("app")]
        configuration.networkMiddleware = [trail.recorder("net")]
        configuration.cookieJar = try HTTPCookieJar()
        configuration.eventMonitors = [monitor]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.text == "Hello World")
            #expect(monitor.entered == ["app", "retry", "redirects", "cookies", "net", "transport"])
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anApplicationStepRunsOncePerRunANetworkStepOnEveryAttemptAndHop(transport: TransportKind) async throws {
        let trail = Trail()
        var configuration = HTTPSession.Configuration()
        configuration.middleware = [trail.recorder("app")]
        configuration.networkMiddleware = [trail.recorder("net")]
        configuration.retryPolicy = quickPolicy()
        try await withSandbox(configuration: configuration, transport: transport) { sandbox, session in
            try await HTTPCycle.get(sandbox.url("/redirect/2"), session: session)
            #expect(trail.all == ["app /redirect/2", "net /redirect/2", "net /redirect/1", "net /redirect/0", "net /hello"])
            let retried = Trail()
            try session.update {
                $0.middleware = [retried.recorder("app")]
                $0.networkMiddleware = [retried.recorder("net")]
            }
            let response = try await HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "mw-\(transport)", "fail": 2], session: session)
            #expect(response.text == "attempt 3 succeeds")
            #expect(retried.all == ["app /counter"] + Array(repeating: "net /counter", count: 3))
        }
    }

    @Test func aNetworkStepSeesTheRequestAsItGoesOnTheWire() async throws {
        let seen = Mutex<HTTPHeaderFields?>(nil)
        var configuration = HTTPSession.Configuration()
        configuration.authentications = [PreemptiveHeader(value: "Bearer secret")]
        configuration.networkMiddleware = [HTTPClosureMiddleware { request, next in
            seen.withLock { $0 = request.headers }
            return try await next(request)
        }]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            let sent = try Inspection(response)
            let headers = try #require(seen.withLock { $0 })
            #expect(headers["Authorization"] == "Bearer secret")
            #expect(sent.values("Authorization") == ["Bearer secret"])
            #expect(headers["User-Agent"] == sent.values("User-Agent").first)
        }
    }

    @Test func aStepThatAnswersItselfSendsNothing() async throws {
        let canned = HTTPClosureMiddleware("canned") { request, _ in
            HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: HTTPResponseBody(Data("canned \(request.url.path)".utf8)))
        }
        try await withSandbox(configuration: .init { $0.networkMiddleware = [canned] }) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "canned", "fail": 0], session: session)
            #expect(response.text == "canned /counter")
            #expect(sandbox.router.requestCount(forKey: "canned") == 0)
        }
    }

    @Test func aBodyAStepMakesGoesToTheDownloadsFileAndTheStreamsReader() async throws {
        let body = Data((0..<200_000).map { UInt8($0 % 251) })
        let canned = HTTPClosureMiddleware("canned") { _, _ in HTTPResponse(statusCode: 200, body: HTTPResponseBody(body)) }
        try await withSandbox(configuration: .init { $0.middleware = [canned] }) { sandbox, session in
            let written = Mutex<Data?>(nil)
            let download = try HTTPCycle(sandbox.url("/download/5"), method: .get, session: session)
            download.delivery = .download(HTTPDownload { _, file in
                let contents = try Data(contentsOf: file)
                written.withLock { $0 = contents }
            })
            try await download.start()
            #expect(written.withLock { $0 } == body)
            #expect(download.response?.data.isEmpty == true)

            let streamed = try HTTPCycle(sandbox.url("/download/5"), method: .get, session: session)
            let opened = try await streamed.startStreaming()
            let (head, chunks) = (opened.head, opened.body)
            var read = Data()
            for try await chunk in chunks { read.append(chunk) }
            #expect(head.statusCode == 200)
            #expect(read == body)
        }
    }

    @Test func aStepThatThrowsEndsTheCycleWithATypedErrorAndTheSessionGoesOn() async throws {
        struct Refused: Error {}
        let failing = Mutex(true)
        let guardStep = HTTPClosureMiddleware("guard") { request, next in
            if failing.withLock({ $0 }) { throw Refused() }
            return try await next(request)
        }
        try await withSandbox(configuration: .init { $0.middleware = [guardStep] }) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/hello/"), session: session) }
            #expect(error?.code == .middleware)
            #expect(error?.underlying is Refused)
            #expect(error?.description.contains("guard") == true)
            failing.withLock { $0 = false }
            try await expectSessionStillWorks(session)
        }
    }

    @Test func aStepBelowTheRetriesHasItsFailureRetried() async throws {
        let attempts = Mutex(0)
        let flaky = HTTPClosureMiddleware("flaky") { request, next in
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            if attempt == 1 { throw HTTPError.timedOut }
            return try await next(request)
        }
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [flaky]
        configuration.retryPolicy = quickPolicy()
        try await withSandbox(configuration: configuration) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/hello/"), method: .get, session: session)
            #expect(try await cycle.start().text == "Hello World")
            #expect(cycle.retryCount == 1)
        }
    }

    @Test func aStepMayRetryByCallingNextTwice() async throws {
        let again = HTTPClosureMiddleware("again") { request, next in
            let first = try await next(request)
            guard first.statusCode == 503 else { return first }
            return try await next(request)
        }
        var configuration = HTTPSession.Configuration()
        configuration.middleware = [again]
        configuration.retryPolicy = .never
        try await withSandbox(configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "twice", "fail": 1], session: session)
            #expect(response.text == "attempt 2 succeeds")
            #expect(sandbox.router.requestCount(forKey: "twice") == 2)
        }
    }

    @Test func cancellingWhileAStepWaitsEndsTheCycleAsCancelled() async throws {
        let waiting = AsyncStream<Void>.makeStream()
        let slow = HTTPClosureMiddleware("slow") { request, next in
            waiting.continuation.yield()
            try await Task.sleep(for: .seconds(300))
            return try await next(request)
        }
        try await withSandbox(configuration: .init { $0.middleware = [slow] }) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "slow", "fail": 0], session: session)
            let task = Task { try await cycle.start() }
            for await _ in waiting.stream { break }
            let started = ContinuousClock.now
            cycle.cancel(explicitly: true)
            let error = await httpError { _ = try await task.value }
            #expect(error?.code == .cancelled)
            #expect(error?.isExplicitCancellation == true)
            #expect(ContinuousClock.now - started < .seconds(60))
            #expect(sandbox.router.requestCount(forKey: "slow") == 0)
        }
    }

    @Test func aStepCanReadTheBodyToSignItAndTheBodyStillGoesOut() async throws {
        let signer = HTTPClosureMiddleware("signer") { request, next in
            var request = request
            let body = try await request.collectBody(upTo: next.bodySizeLimit)
            request.headers["X-Body-Length"] = "\(body.count)"
            return try await next(request)
        }
        try await withSandbox(configuration: .init { $0.networkMiddleware = [signer] }) { sandbox, session in
            let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
            continuation.yield(Data("one-shot ".utf8))
            continuation.yield(Data("stream".utf8))
            continuation.finish()
            let cycle = try HTTPCycle(sandbox.url("/inspect"), method: .post, session: session)
            cycle.request.body = .stream(HTTPBodyStream(chunks))
            try await cycle.start()
            let inspection = try Inspection(cycle.response)
            #expect(inspection.body == "one-shot stream")
            #expect(inspection.values("X-Body-Length") == ["15"])
        }
    }

    @Test func readingABodyPastTheLimitIsATypedErrorAndLosesNothing() async throws {
        let reader = HTTPClosureMiddleware("reader") { request, next in
            var request = request
            _ = try await request.collectBody(upTo: 4)
            return try await next(request)
        }
        try await withSandbox(configuration: .init { $0.middleware = [reader] }) { sandbox, session in
            let error = await httpError {
                try await HTTPCycle.post(sandbox.url("/inspect"), requestObject: "more than four bytes", session: session)
            }
            #expect(error?.code == .requestTooLarge)
            var request = HTTPRequest(url: try #require(URL(string: sandbox.url("/inspect"))), data: Data("12345".utf8))
            await #expect(throws: HTTPError.self) { _ = try await request.collectBody(upTo: 4) }
            #expect(request.data == Data("12345".utf8))
        }
    }

    @Test func aRequestAStepBreaksIsRefusedBeforeTheWire() async throws {
        let breaking = HTTPClosureMiddleware("breaking") { request, next in
            var request = request
            request.headers["X-Injected"] = "a\r\nSet-Cookie: evil=1"
            return try await next(request)
        }
        try await withSandbox(configuration: .init { $0.networkMiddleware = [breaking] }) { sandbox, session in
            let error = await httpError {
                try await HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "broken", "fail": 0], session: session)
            }
            #expect(error?.code == .invalidHeader)
            #expect(sandbox.router.requestCount(forKey: "broken") == 0)
        }
    }
}

/// Sends a fixed `Authorization` before each send, as a token would.
struct PreemptiveHeader: HTTPAuthentication {
    let value: String

    func authorize(_ request: inout HTTPRequest) async throws {
        request.headers["Authorization"] = value
    }

    func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) async throws -> Bool { false }
    func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {}
}
