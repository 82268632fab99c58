import Dispatch
import Foundation
import JewzHTTPCore
import JewzMocking
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// An authentication that answers a Basic challenge, as the Auth module's will.
struct ChallengeAnsweringBasic: HTTPAuthentication {
    let user: String
    let password: String
    func authorize(_ request: inout HTTPRequest) async throws {}
    func didReceive(_ response: HTTPResponse, for request: HTTPRequest) throws {}
    func respond(to challenge: HTTPResponse, retrying request: inout HTTPRequest) throws -> Bool {
        guard challenge.headers["www-authenticate"]?.hasPrefix("Basic") == true else { return false }
        request.headers["Authorization"] = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        return true
    }
}

/// Counts its runs and marks the requests it prepared.
final class CountingProcessor: HTTPRequestProcessor, Sendable {
    private let count = Counter()
    var runs: Int { count.value }
    func prepare(_ request: inout HTTPRequest) throws {
        count.increment()
        request.headers["X-Prepared"] = "yes"
    }
}

final class Counter: Sendable {
    private let storage = Mutex(0)
    var value: Int { storage.withLock { $0 } }
    func increment() { storage.withLock { $0 += 1 } }
}

@Suite struct HTTPCycleTests {
    @Test(arguments: TransportKind.allCases) func getReturnsTheFinishedCycle(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.statusCode == 200)
            #expect(response.text == "Hello World")
            #expect(response.headers["content-TYPE"] == "text/plain; charset=utf-8")
        }
    }

    @Test(arguments: [
        "", "not a url", "ftp://example.com/file", "http://", "http:///path", "//host/path", "http:host/path",
        "http://user@/path", "http://:80/path", "httpx://example.com/", "mailto:someone@example.com",
    ])
    func invalidURLStringsThrowAtOnce(_ string: String) async {
        let error = await httpError { _ = try await HTTPCycle.get(string) }
        guard let error, error.code == .invalidURL else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        // User info is redacted from every message (see LoggingTests).
        #expect(error.description.hasPrefix("Invalid URL '\(string.replacingOccurrences(of: "//user@", with: "//***@"))'"))
        #expect(throws: HTTPError.self) { try HTTPCycle.get(string) { _, _ in Issue.record("must not complete") } }
    }

    @Test(arguments: [
        "http://example.com", "HTTPS://Example.com:8443/a?b#c", "http://user:pass@example.com/", "http://[::1]:8080/",
        "http://example.com?q", "https://example.com#fragment",
    ])
    func sendableURLStringsMakeACycle(_ string: String) throws {
        _ = try HTTPCycle(string, method: .get)
    }

    @Test func aURLChangedAfterTheStringWasCheckedIsCheckedAgain() async throws {
        // The string initializer's check covers its own URL only.
        let cycle = try HTTPCycle("http://127.0.0.1:1/hello", method: .get, options: .init(retryPolicy: .never))
        cycle.request.url = try #require(URL(string: "ftp://example.com/file"))
        guard let error = await httpError({ try await cycle.start() }), error.code == .invalidURL else {
            Issue.record("a non-http URL was sent")
            return
        }
    }

    @Test(arguments: TransportKind.allCases) func parametersMergeIntoTheQuerySentOnTheWire(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let response = try await HTTPCycle.get(
                sandbox.url("/inspect?x=1&y=%2F"), parameters: ["content": ["dummy", 71], "é": "a b"],
                session: session)
            #expect(try Inspection(response).uri == "/inspect?x=1&y=%2F&content=dummy&content=71&%C3%A9=a%20b")
            let echoed = try await HTTPCycle.get(sandbox.url("/echo/"), parameters: ["content": "dummy"], session: session)
            #expect(echoed.text == "dummy")
        }
    }

    @Test(arguments: TransportKind.allCases) func customHeadersAndMultipleValuesReachTheServer(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = HTTPCycle(requestURL: try #require(URL(string: sandbox.url("/inspect"))), session: session)
            cycle.request.headers["User-Agent"] = "Jewzruxin-Test/1.0"
            cycle.request.headers.add("a", for: "X-Tag")
            cycle.request.headers.add("b", for: "x-tag")
            try await cycle.start()
            let inspection = try Inspection(cycle.response)
            #expect(inspection.values("user-agent") == ["Jewzruxin-Test/1.0"])
            // URLRequest keeps one value per name, so URLSession sends repeated fields joined.
            #expect(inspection.values("X-Tag") == (transport == .urlSession ? ["a,b"] : ["a", "b"]))
        }
    }

    @Test func sessionAdditionalHeadersApplyUnlessTheRequestSetsThem() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.additionalHeaders = ["User-Agent": "Session/1", "Accept": "text/plain"]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/inspect"), method: .get, session: session)
            cycle.request.headers["accept"] = "application/json"
            try await cycle.start()
            let inspection = try Inspection(cycle.response)
            #expect(inspection.values("User-Agent") == ["Session/1"])
            #expect(inspection.values("Accept") == ["application/json"])
        }
    }

    @Test(arguments: TransportKind.allCases) func postRawDataThroughTheDataProcessor(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let response = try await HTTPCycle.post(
                sandbox.url("/dumpupload/"), requestObject: "Hello World", options: .init(requestProcessors: [HTTPDataProcessor()], responseProcessors: [HTTPDataProcessor()]), session: session)
            #expect(response.text == "Hello World")
            #expect(response.object as? Data == Data("Hello World".utf8))

            let manual = HTTPCycle(requestURL: try #require(URL(string: sandbox.url("/dumpupload/"))), requestMethod: .put, session: session)
            manual.request.data = Data([0, 1, 2, 255])
            try await manual.start()
            #expect(manual.response?.data == Data([0, 1, 2, 255]))
        }
    }

    @Test func unsupportedRequestObjectsFailBeforeSending() async throws {
        try await withSandbox { sandbox, session in
            let error = await httpError {
                _ = try await HTTPCycle.post(
                    sandbox.url("/dumpupload/"), requestObject: 42, options: .init(requestProcessors: [HTTPDataProcessor()]), session: session)
            }
            guard let error, error.code == .unsupportedRequestObject else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(error.description.contains("HTTPDataProcessor cannot turn a request object of type Int"))
        }
    }

    @Test func withoutAProcessorBytesAndTextAreSentAndOtherObjectsRefused() async throws {
        try await withSandbox { sandbox, session in
            let bytes = try await HTTPCycle.post(sandbox.url("/inspect"), requestObject: Data("raw".utf8), session: session)
            #expect(try Inspection(bytes).body == "raw")
            let text = try await HTTPCycle.post(sandbox.url("/inspect"), requestObject: "grüße", session: session)
            let inspection = try Inspection(text)
            #expect(inspection.body == "grüße")
            #expect(inspection.values("Content-Type") == ["text/plain; charset=utf-8"])
            let error = await httpError {
                _ = try await HTTPCycle.post(sandbox.url("/inspect"), requestObject: 42, session: session)
            }
            #expect(error?.code == .unsupportedRequestObject)
            #expect(error?.description.hasPrefix("No request processor turns a request object of type Int into a body: depend on the umbrella module Jewzruxin") == true)
        }
    }

    @Test(arguments: TransportKind.allCases) func statusAtOrAbove400FailsAndTheResponseStaysReadable(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["code": 404, "content": "gone"], session: session)
            let error = await httpError { try await cycle.start() }
            guard let error = error, error.code == .statusCode, error.statusCode == 404 else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(cycle.response?.statusCode == 404)
            #expect(cycle.response?.text == "gone")
            let ok = try await HTTPCycle.get(sandbox.url("/status/399"), session: session)
            #expect(ok.statusCode == 399)
        }
    }

    @Test(arguments: TransportKind.allCases) func aOneCallFormThrowsTheFailingResponseWithItsBody(transport: TransportKind) async throws {
        var registry = ProcessorRegistry()
        try registry.register(TaggingProcessor(tag: "parsed"), for: "text/*")
        try await withSandbox(registry: registry, transport: transport) { sandbox, session in
            let error = await httpError {
                try await HTTPCycle.get(
                    sandbox.url("/echo/"), parameters: ["code": 422, "content": "name is missing", "header": "X-Reason: validation"],
                    session: session)
            }
            guard let error, error.code == .statusCode, let response = error.response else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(error.statusCode == 422)
            #expect(response.text == "name is missing")
            #expect(response.headers["X-Reason"] == "validation")
            // A failing body is still processed when its processor can read it.
            #expect(response.object as? String == "parsed")
            #expect(error.description.contains("status 422"))
        }
    }

    @Test func theSessionPolicyCanAcceptFailureStatuses() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.shouldTreatStatusCodeAsFailure = { _ in false } }
            let response = try await HTTPCycle.get(sandbox.url("/status/500"), session: session)
            #expect(response.statusCode == 500)
            try session.update { $0.shouldTreatStatusCodeAsFailure = { $0 >= 500 } }
            let notFound = try await HTTPCycle.get(sandbox.url("/status/404"), session: session)
            #expect(notFound.statusCode == 404)
        }
    }

    @Test func theCompletionFormReturnsAtOnceAndCallsBackOnTheCompletionQueue() async throws {
        let queue = DispatchQueue(label: "test.completion")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "completion")
        let sandbox = try await Sandbox.start()
        let session = HTTPSession(configuration: .init { $0.completionQueue = queue })
        let (text, onQueue, error): (String?, Bool, HTTPError?) = try await withCheckedThrowingContinuation { continuation in
            do {
                let cycle = try HTTPCycle.get(sandbox.url("/echo/"), parameters: ["content": "later", "delay": 0.05], session: session) { cycle, error in
                    continuation.resume(returning: (cycle.response?.text, DispatchQueue.getSpecific(key: key) == "completion", error))
                }
                #expect(cycle.response == nil)
            } catch {
                continuation.resume(throwing: error)
            }
        }
        #expect(text == "later")
        #expect(onQueue)
        #expect(error == nil)
        try await session.shutdown()
        try await sandbox.shutdown()
    }

    @Test(arguments: TransportKind.allCases) func textEncodingRulesAgainstTheServer(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let latin = try await HTTPCycle.get(sandbox.url("/echo/"), parameters: ["content": "é", "encoding": "iso-8859-1"], session: session)
            #expect(latin.data == Data([0xE9]))
            #expect(latin.text == "é")
            let noCharset = try await HTTPCycle.get(
                sandbox.url("/echo/"), parameters: ["content": "é", "header": "Content-Type: text/plain"], session: session)
            #expect(noCharset.text == "Ã©")
            let bom = try await HTTPCycle.get(
                sandbox.url("/echo/"),
                parameters: ["content": "hé", "encoding": "utf-16", "header": "Content-Type: application/octet-stream"],
                session: session)
            #expect(bom.data.count == 6)
            #expect(bom.text == "hé")
        }
    }

    @Test(arguments: TransportKind.allCases) func concurrentCyclesOnOneSessionEachGetTheirOwnResponse(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let response = try await HTTPCycle.get(sandbox.url("/echo/"), parameters: ["content": "\(index)"], session: session)
                        return (index, response.text)
                    }
                }
                var seen = 0
                for try await (index, text) in group {
                    #expect(text == "\(index)")
                    seen += 1
                }
                #expect(seen == 100)
            }
        }
    }

    @Test(arguments: TransportKind.allCases) func authenticationsAnswerChallengesOnce(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let response = try await HTTPCycle.get(
                sandbox.url("/hello_with_basic_auth"), options: .init(authentications: [ChallengeAnsweringBasic(user: "test", password: "12345")]),
                session: session)
            #expect(response.text == "Hello World")

            let wrong = try HTTPCycle(
                sandbox.url("/hello_with_basic_auth"), method: .get, options: .init(authentications: [ChallengeAnsweringBasic(user: "test", password: "nope")]), session: session)
            let error = await httpError { try await wrong.start() }
            guard let error = error, error.code == .statusCode, error.statusCode == 401 else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }

    @Test(arguments: TransportKind.allCases) func redirectsAreFollowed(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/redirect/3"), session: session)
            #expect(response.text == "Hello World")
            // The response follows redirects, so both transports report the URL as it was sent.
            #expect(response.url?.absoluteString == sandbox.url("/hello/"))
        }
    }

    @Test func headerInjectionIsRefusedBeforeSending() async throws {
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/inspect"), method: .get, session: session)
            cycle.request.headers["X-Evil"] = "a\r\nInjected: yes"
            let error = await httpError { try await cycle.start() }
            guard let error, error.code == .invalidHeader else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(error.description.hasPrefix("Invalid header 'X-Evil'"))
        }
    }

    @Test func aRunThatFailsAtOnceDoesNotStayRunning() async throws {
        let cycle = try HTTPCycle("http://127.0.0.1:9/", method: .get, session: HTTPSession(configuration: .init { $0.customTransport = MockTransport(); $0.logger = quietLogger }))
        for _ in 0..<200 {
            cycle.request.headers["Bad Name"] = "x"
            _ = await httpError { try await cycle.start() }
            #expect(!cycle.isRunning)
        }
    }

    @Test(arguments: TransportKind.allCases) func aRefusedConnectionIsAConnectionFailure(transport: TransportKind) async throws {
        let session = HTTPSession(configuration: try .init { $0.customTransport = try transport.make(.init()); $0.logger = quietLogger })
        let error = try await withRefusedURL("/hello/") { url in await httpError { _ = try await HTTPCycle.get(url, session: session) } }
        try await session.shutdown()
        #expect(error?.code == .connectionFailed, "got \(String(describing: error))")
    }

    @Test(arguments: TransportKind.allCases) func aRequestTimeoutIsTimedOut(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["delay": 300], session: session)
            cycle.options.timeoutForResource = .milliseconds(200)
            cycle.options.retryPolicy = .never
            let clock = ContinuousClock()
            let started = clock.now
            let error = await httpError { try await cycle.start() }
            guard let error = error, error.code == .timedOut else {
                Issue.record("got \(String(describing: error))")
                return
            }
            // The server would answer after 300 s; the margin is for a starved machine.
            #expect(clock.now - started < .seconds(150))
        }
    }

    @Test(arguments: TransportKind.allCases) func aConnectionDroppedMidBodyIsAConnectionLoss(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let error = await httpError { _ = try await HTTPCycle.get(sandbox.url("/drop/1000"), session: session) }
            guard let error = error, error.code == .connectionLost else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }

    @Test(arguments: TransportKind.allCases) func anExplicitCancelThrowsCancelledExplicitly(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/echo/"), method: .get, parameters: ["delay": 5], session: session)
            async let outcome = httpError { try await cycle.start() }
            try await waitUntil { cycle.isRunning }
            cycle.cancel(explicitly: true)
            guard let error = await outcome, error.code == .cancelled, error.isExplicitCancellation else {
                Issue.record("expected an explicit cancellation")
                return
            }
        }
    }

    @Test(arguments: TransportKind.allCases) func aSessionThatIsShutDownRefusesRequests(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let other = HTTPSession()
            try await other.shutdown()
            let error = await httpError { _ = try await HTTPCycle.get(sandbox.url("/hello/"), session: other) }
            guard let error = error, error.code == .sessionShutDown else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }
}
