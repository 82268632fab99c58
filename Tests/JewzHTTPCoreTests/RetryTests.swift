import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

@Suite struct RetryTests {
    @Test func failedAttemptsAreRetriedUntilTheServerAnswers() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.retryPolicy = quickPolicy() }
            let cycle = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "a", "fail": 2], session: session)
            let response = try await cycle.start()
            #expect(response.text == "attempt 3 succeeds")
            #expect(cycle.retryCount == 2)
        }
    }

    @Test func retriesStopAtTheMaximum() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.retryPolicy = quickPolicy() }
            let cycle = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "b", "fail": 10], session: session)
            guard let error = await httpError({ try await cycle.start() }), error.code == .statusCode, error.statusCode == 503 else {
                Issue.record("expected a 503")
                return
            }
            #expect(cycle.retryCount == RetryPolicy.defaultMaximumRetryCount)
            let probe = try? await HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "b", "fail": 10], options: .init(retryPolicy: .never), session: session)
            #expect(probe == nil)  // attempt 5 still fails: the cycle sent exactly 4
        }
    }

    @Test func aCallsOwnRetryPolicyGovernsItsRunAndStaysAValue() async throws {
        try await withSandbox { sandbox, session in
            var options = HTTPRequestOptions(retryPolicy: quickPolicy())
            let untouched = options
            options.retryPolicy?.maximumRetryCount = 1
            #expect(untouched.retryPolicy?.maximumRetryCount == RetryPolicy.defaultMaximumRetryCount)
            let error = await httpError {
                try await HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "own", "fail": 10], options: options, session: session)
            }
            #expect(error?.statusCode == 503)
            // One retry, not the session's default three: attempt 3 is the next to fail.
            let probe = try? await HTTPCycle.get(
                sandbox.url("/counter"), parameters: ["key": "own", "fail": 2], options: .init(retryPolicy: .never), session: session)
            #expect(probe?.text == "attempt 3 succeeds")
            let cycle = try HTTPCycle(sandbox.url("/"), method: .get, options: options, session: session)
            #expect(cycle.options.retryPolicy?.maximumRetryCount == 1)
        }
    }

    @Test func postIsNotRetriedAfterAResponse() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.retryPolicy = quickPolicy() }
            let cycle = try HTTPCycle(sandbox.url("/counter"), method: .post, parameters: ["key": "c", "fail": 1], session: session)
            guard let error = await httpError({ try await cycle.start() }), error.code == .statusCode, error.statusCode == 503 else {
                Issue.record("expected a 503")
                return
            }
            #expect(cycle.retryCount == 0)
        }
    }

    @Test func nonIdempotentRequestsAreRetriedOnlyWhenTheServerNeverSawThem() {
        let policy = quickPolicy()
        let url = URL(fileURLWithPath: "/")
        func delay(_ method: HTTPMethod, _ error: HTTPError) -> Duration? {
            policy.delay(for: RetryAttempt(method: method, url: url, error: error, retryCount: 0, solicited: false))
        }
        #expect(delay(.post, .connectionFailed(reason: "refused")) != nil)
        #expect(delay(.patch, .connectionLost(reason: "reset")) == nil)
        #expect(delay(.post, .timedOut) == nil)
        #expect(delay(.post, .statusCode(HTTPResponse(statusCode: 503))) == nil)
        #expect(delay(.get, .timedOut) != nil)
        #expect(delay(.put, .statusCode(HTTPResponse(statusCode: 408))) != nil)
        #expect(delay(.get, .statusCode(HTTPResponse(statusCode: 500))) == nil)
        #expect(delay(.get, .cancelled(explicitly: false)) == nil)
        var solicited = RetryAttempt(method: .post, url: url, error: .statusCode(HTTPResponse(statusCode: 500)), retryCount: 50, solicited: true)
        #expect(policy.delay(for: solicited) == nil)  // solicited does not override the safety rule
        solicited.method = .get
        #expect(policy.delay(for: solicited) != nil)
    }

    @Test func retryAfterIsHonouredInSecondsAndAsAnHTTPDate() async throws {
        let now = Date(timeIntervalSince1970: 784_111_767)  // Sun, 06 Nov 1994 08:49:27 GMT
        #expect(RetryPolicy.retryAfter("120") == .seconds(120))
        #expect(RetryPolicy.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .seconds(10))
        #expect(RetryPolicy.retryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == .seconds(10))
        #expect(RetryPolicy.retryAfter("Sun Nov  6 08:49:37 1994", now: now) == .seconds(10))
        #expect(RetryPolicy.retryAfter("soon") == nil)
        #expect(RetryPolicy.retryAfter("-1") == nil)
        try await withSandbox { sandbox, session in
            try session.update { $0.retryPolicy = quickPolicy() }
            let clock = ContinuousClock()
            let started = clock.now
            let response = try await HTTPCycle.get(
                sandbox.url("/counter"), parameters: ["key": "d", "fail": 1, "retry-after": 1], session: session)
            #expect(response.statusCode == 200)
            #expect(clock.now - started >= .milliseconds(950))
            var impatient = quickPolicy()
            impatient.maximumRetryAfter = .milliseconds(500)
            let refused = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "e", "fail": 1, "retry-after": 1], session: session)
            refused.options.retryPolicy = impatient
            _ = await httpError { try await refused.start() }
            #expect(refused.retryCount == 0)
        }
    }

    @Test func idleTimeoutsAreRetriedInsideTheOverallTimeout() async throws {
        // The idle timeout ends one attempt; the second answers at once. The overall timeout
        // leaves room for slow runs (TSan, the whole suite on a slow VM) but bounds the run.
        var configuration = HTTPSession.Configuration()
        configuration.transport.timeouts.idle = .seconds(4)
        try await withSandbox(configuration: configuration) { sandbox, session in
            // Retries enough that a starved machine idling out a later attempt or two still ends
            // in time; the overall timeout bounds them.
            var policy = quickPolicy()
            policy.maximumRetryCount = 10
            try session.update { $0.retryPolicy = policy }
            let cycle = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "f", "fail": 1, "delay": 10], session: session)
            cycle.options.timeoutForResource = .seconds(60)
            try await cycle.start()
            // On a loaded machine a later attempt may idle out too, or fail before the server
            // counts it (a kept-alive connection it had closed): each is retried.
            #expect(cycle.retryCount >= 1)
            let attempts = sandbox.router.requestCount(forKey: "f")
            #expect(cycle.response?.text == "attempt \(attempts) succeeds")
            #expect(attempts >= 2 && attempts <= cycle.retryCount + 1)
        }
    }

    @Test func anAttemptThatUsesTheWholeTimeoutIsNotRetried() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.retryPolicy = quickPolicy() }
            let cycle = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "g", "fail": 1, "delay": 10], session: session)
            cycle.options.timeoutForResource = .milliseconds(300)
            let error = await httpError { try await cycle.start() }
            #expect(error?.code == .timedOut)
            #expect(cycle.retryCount == 0)
        }
    }

    @Test func solicitedCyclesRetryAnyErrorUntilDataArrives() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.retryPolicy = quickPolicy() }
            let cycle = try HTTPCycle(
                sandbox.url("/counter"), method: .get, parameters: ["key": "g", "fail": 6, "status": 500], options: .init(solicited: true),
                session: session)
            let response = try await cycle.start()
            #expect(cycle.retryCount == 6)
            #expect(response.text == "attempt 7 succeeds")
        }
    }

    @Test func solicitedRetriesStayCancellable() async throws {
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        try session.update { $0.retryPolicy = quickPolicy() }
        let error = try await withRefusedURL("/hello/") { url in
            let cycle = try HTTPCycle(url, method: .get, options: .init(solicited: true), session: session)
            let task = Task { try await cycle.start() }
            try await waitUntil { cycle.retryCount >= 3 }
            task.cancel()
            return await httpError { _ = try await task.value }
        }
        try await session.shutdown()
        #expect(error?.code == .cancelled, "got \(String(describing: error))")
        #expect(error?.isExplicitCancellation == false)
    }

    @Test func theHookDecidesPerAttempt() async throws {
        try await withSandbox { sandbox, session in
            var policy = quickPolicy()
            policy.shouldRetry = { attempt in attempt.error.code == .timedOut ? nil : attempt.error.response?.statusCode == 500 }
            try session.update { $0.retryPolicy = policy }
            let retried = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "h", "fail": 1, "status": 500], session: session)
            try await retried.start()
            #expect(retried.retryCount == 1)
            let notRetried = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: ["key": "i", "fail": 1], session: session)
            _ = await httpError { try await notRetried.start() }
            #expect(notRetried.retryCount == 0)
        }
    }

    @Test func theActivityHandlerSeesEveryChangeInOrder() async throws {
        try await withSandbox { sandbox, session in
            let seen = Mutex<[Int]>([])
            let done = AsyncStream<Void>.makeStream()
            try session.update { $0.activityHandler = { count in
                let finished = seen.withLock { values in
                    values.append(count)
                    return values.count == 20
                }
                if finished { done.continuation.finish() }
            } }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask { _ = try await HTTPCycle.get(sandbox.url("/echo/"), parameters: ["delay": 0.2], session: session) }
                }
                try await group.waitForAll()
            }
            for await _ in done.stream {}
            let values = seen.withLock { $0 }
            #expect(values.count == 20)
            #expect(values.last == 0)
            #expect(values.max() == 10)
            #expect(zip(values, values.dropFirst()).allSatisfy { abs($0 - $1) == 1 })
        }
    }
}

