import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// `HTTPSession.send(_:options:)`: a request in, a response out, the session's whole path run,
/// cancelled by its task alone.
@Suite struct SessionSendTests {
    @Test func sendReturnsTheProcessedResponse() async throws {
        var registry = ProcessorRegistry()
        try registry.register(UppercasingProcessor(), for: "text/plain")
        try await withSandbox(registry: registry) { sandbox, session in
            let response = try await session.send(HTTPRequest(url: URL(string: sandbox.url("/hello/"))!))
            #expect(response.statusCode == 200)
            #expect(response.object as? String == "HELLO WORLD")
            #expect(session.runningCalls.isEmpty)
        }
    }

    @Test func optionsOverrideTheSessionsSettingsForOneCall() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.requestProcessors = [MarkingProcessor(mark: "session")] }
            let echo = URL(string: sandbox.url("/inspect"))!
            let own = try await session.send(
                HTTPRequest(url: echo), options: .init(requestProcessors: [MarkingProcessor(mark: "call")], responseProcessors: []))
            #expect(own.text?.contains(#"["X-From","call"]"#) == true)
            let shared = try await session.send(HTTPRequest(url: echo), options: .init(responseProcessors: []))
            #expect(shared.text?.contains(#"["X-From","session"]"#) == true)
        }
    }

    @Test func aFailingStatusThrowsWithTheResponseAndRetriesAsTheOptionsSay() async throws {
        try await withSandbox { sandbox, session in
            let url = URL(string: sandbox.url("/counter?key=send&fail=1&status=503"))!
            let error = await httpError { _ = try await session.send(HTTPRequest(url: url), options: .init(retryPolicy: .never)) }
            #expect(error?.code == .statusCode)
            #expect(error?.response?.statusCode == 503)
            // With a policy that retries it, the same failure is sent again and succeeds.
            var quickPolicy = RetryPolicy()
            quickPolicy.baseDelay = .milliseconds(10)
            let retried = try await session.send(
                HTTPRequest(url: URL(string: sandbox.url("/counter?key=send-retried&fail=1&status=503"))!),
                options: .init(retryPolicy: quickPolicy))
            #expect(retried.text == "attempt 2 succeeds")
        }
    }

    @Test(.timeLimit(.minutes(1))) func cancellingTheTaskStopsTheExchangeOnTheWire() async throws {
        try await withSandbox { sandbox, session in
            let url = URL(string: sandbox.url("/counter?key=held-send&fail=0&hold=300"))!
            let started = ContinuousClock.now
            let task = Task { try await session.send(HTTPRequest(url: url)) }
            try await waitUntil { sandbox.router.requestCount(forKey: "held-send") > 0 }
            task.cancel()
            let error = await httpError { _ = try await task.value }
            #expect(error?.code == .cancelled)
            #expect(error?.isExplicitCancellation == false)
            #expect(ContinuousClock.now - started < .seconds(150))  // the server would answer after 300
        }
    }

    @Test(.timeLimit(.minutes(1))) func cancellingASendWaitingInThePausedQueueKeepsItOffTheWire() async throws {
        try await withSandbox { sandbox, session in
            session.pause()
            let count = Mutex(0)
            try session.update { $0.activityHandler = { value in count.withLock { $0 = value } } }
            let url = URL(string: sandbox.url("/counter?key=queued-send&fail=0"))!
            let task = Task { try await session.send(HTTPRequest(url: url), options: .init(priority: .high)) }
            try await waitUntil { count.withLock { $0 } == 1 }
            task.cancel()
            #expect(await httpError { _ = try await task.value }?.code == .cancelled)
            session.resume()
            let probe = try await session.send(HTTPRequest(url: url))
            #expect(probe.text == "attempt 1 succeeds")  // the cancelled one never arrived
        }
    }

    @Test func middlewareSeesASendACycleAndAOneCallFormAlike() async throws {
        let seen = Mutex<[String]>([])
        let probe = HTTPClosureMiddleware("probe") { request, next in
            seen.withLock { $0.append(request.url.path) }
            return try await next(request)
        }
        var configuration = HTTPSession.Configuration()
        configuration.middleware = [probe]
        try await withSandbox(configuration: configuration) { sandbox, session in
            _ = try await session.send(HTTPRequest(url: URL(string: sandbox.url("/hello/"))!))
            _ = try await HTTPCycle.get(sandbox.url("/echo/"), session: session)
            try await HTTPCycle(requestURL: URL(string: sandbox.url("/inspect"))!, session: session).start()
            #expect(seen.withLock { $0 } == ["/hello", "/echo", "/inspect"])
        }
    }

    @Test func eventMonitorsHearOfASendAsACallWithoutACycle() async throws {
        try await withSandbox { sandbox, session in
            let monitor = RecordingMonitor()
            try session.update { $0.eventMonitors = [monitor] }
            _ = try await session.send(HTTPRequest(url: URL(string: sandbox.url("/hello/"))!))
            #expect(monitor.allNames.contains(["requestPrepared", "→retry", "requestSent#1", "→redirects", "→transport", "responseReceived#1", "processed", "finished"]))
        }
    }
}

/// Sets `X-From` on the request.
private struct MarkingProcessor: HTTPRequestProcessor {
    let mark: String

    func prepare(_ request: inout HTTPRequest) throws {
        request.headers["X-From"] = mark
    }
}

/// Upper-cases a text body into the response's object.
private struct UppercasingProcessor: HTTPResponseProcessor {
    func process(_ response: inout HTTPResponse) throws {
        response.object = response.text?.uppercased()
    }
}
