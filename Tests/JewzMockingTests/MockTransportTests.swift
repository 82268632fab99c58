import Foundation
import JewzHTTPCore
import JewzMocking
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

@Suite struct MockTransportTests {
    struct User: Codable, Equatable, Sendable {
        var id: Int
        var name: String
    }

    @Test func stubsAnswerThroughTheWholePipeline() async throws {
        let mock = MockTransport()
        try mock.fakeGET("/users/42", json: User(id: 42, name: "Ada"))
        mock.stub(.delete, path: "/users/42", status: 204)
        let session = HTTPSession(configuration: .init { $0.processorRegistry = ProcessorRegistry(); $0.customTransport = mock; $0.logger = quietLogger })
        let response = try await HTTPCycle.get("https://api.example.com/users/42", session: session)
        #expect(try JSONDecoder().decode(User.self, from: response.data) == User(id: 42, name: "Ada"))
        let deleted = try await HTTPCycle.delete("https://api.example.com/users/42", session: session)
        #expect(deleted.statusCode == 204)
        #expect(mock.requests.map(\.method) == [.get, .delete])
    }

    @Test func statusAndRetryLogicApplyToMockedCycles() async throws {
        let mock = MockTransport()
        let calls = Mutex(0)
        mock.stub(where: { $0.url.path == "/flaky" }) { _ in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            return call < 3 ? .response(status: 503, headers: [:], body: Data()) : .response(status: 200, headers: [:], body: Data("ok".utf8))
        }
        mock.stub(.get, path: "/gone", status: 410, body: Data("gone".utf8))
        let session = HTTPSession(configuration: .init { $0.customTransport = mock; $0.logger = quietLogger })
        try session.update { $0.retryPolicy = quickPolicy() }
        let flaky = try HTTPCycle("https://h.example/flaky", method: .get, session: session)
        #expect(try await flaky.start().text == "ok")
        #expect(flaky.retryCount == 2)
        let gone = try HTTPCycle("https://h.example/gone", method: .get, session: session)
        guard let error = await httpError({ try await gone.start() }), error.code == .statusCode, error.statusCode == 410 else {
            Issue.record("expected 410")
            return
        }
        #expect(gone.response?.text == "gone")
    }

    @Test func failuresDelaysAndUnmatchedRequests() async throws {
        let mock = MockTransport()
        mock.stub(path: "/down", failure: .connectionFailed(reason: "mocked"))
        mock.stub(.get, path: "/slow", body: Data("late".utf8), delay: .seconds(5))
        let session = HTTPSession(configuration: .init { $0.customTransport = mock; $0.logger = quietLogger })
        try session.update { $0.retryPolicy = .never }
        guard let failure = await httpError({ _ = try await HTTPCycle.get("https://h.example/down", session: session) }),
            failure.code == .connectionFailed
        else {
            Issue.record("expected a connection failure")
            return
        }
        #expect(failure.description.contains("(mocked)"))
        let slow = try HTTPCycle("https://h.example/slow", method: .get, session: session)
        slow.options.timeoutForResource = .milliseconds(50)
        guard let error = await httpError({ try await slow.start() }), error.code == .timedOut else {
            Issue.record("expected a timeout")
            return
        }
        let unmatched = await httpError { _ = try await HTTPCycle.post("https://h.example/nothing?q=1", session: session) }
        guard let unmatched, unmatched.code == .transport, let reason = unmatched.underlying as? MockTransport.UnmatchedRequest else {
            Issue.record("got \(String(describing: unmatched))")
            return
        }
        #expect(reason.method == .post)
        #expect(reason.url.absoluteString == "https://h.example/nothing?q=1")
        #expect(unmatched.description.contains("POST https://h.example/nothing?q=1"))
    }

    @Test func unmatchedRequestsGoOnToTheFallback() async throws {
        let sandbox = try await Sandbox.start()
        let mock = MockTransport(fallback: AsyncHTTPClientTransport())
        try mock.fakeGET("/json", json: ["faked": true])
        let session = HTTPSession(configuration: .init { $0.customTransport = mock; $0.logger = quietLogger })
        let faked = try await HTTPCycle.get(sandbox.url("/json"), session: session)
        #expect(faked.text == #"{"faked":true}"#)
        let real = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
        #expect(real.text == "Hello World")
        // A streamed body that no stub takes reaches the network whole.
        let upload = HTTPCycle(requestURL: try #require(URL(string: sandbox.url("/dumpupload/"))), requestMethod: .post, session: session)
        let (chunks, writer) = AsyncThrowingStream<Data, any Error>.makeStream()
        writer.yield(Data("hello".utf8))
        writer.finish()
        upload.request.body = .stream(HTTPBodyStream(length: 5, chunks))
        #expect(try await upload.start().text == "hello")
        #expect(mock.requests.map { $0.url.path(percentEncoded: true) } == ["/json", "/hello/", "/dumpupload/"])
        try await session.shutdown()
        try await sandbox.shutdown()
    }
}
