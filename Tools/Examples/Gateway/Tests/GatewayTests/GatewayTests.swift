import Foundation
import JewzHTTPCore
import Synchronization
import Testing

/// The gateway as a service's operator meets it: started as a program with a JSON file and
/// the environment, calling two upstreams on loopback.
@Suite(.timeLimit(.minutes(3)))
struct GatewayTests {
    @Test func answersFromBothUpstreamsAndKeepsTheCatalogsAnswerInItsCache() async throws {
        let catalog = try await Upstream.start()
        let prices = try await Upstream.start()
        defer { Task { await catalog.stop(); await prices.stop() } }
        // The upstreams from the environment, the rest from the file.
        let run = try await runGateway(
            json: #"{"gateway": {"port": 0}}"#,
            environment: ["UPSTREAMS_CATALOG": catalog.url, "UPSTREAMS_PRICES": prices.url]
        ) { gateway in
            let first = try await product("1", from: gateway)
            #expect(first.status == 200 && first.answer?.name == "Product 1" && first.answer?.price == 9.5, "\(first)")
            let second = try await product("1", from: gateway)
            #expect(second.answer?.name == "Product 1" && second.answer?.price == 9.5, "\(second)")
            #expect(catalog.answered == 1, "the second answer came from the gateway's cache")
            #expect(prices.answered == 2, "prices are never stored")
            let missing = try await product("missing", from: gateway)
            #expect(missing.status == 404, "\(missing)")
        }
        #expect(run.status == .exited(0), "\(run.log)")
    }

    @Test func theCircuitOpensWhenAnUpstreamDiesAndClosesWhenItIsBack() async throws {
        let catalog = try await Upstream.start()
        let prices = try await Upstream.start()
        defer { Task { await catalog.stop(); await prices.stop() } }
        let json = """
            {"gateway": {"port": 0}, "upstreams": {"catalog": "\(catalog.url)", "prices": "\(prices.url)"},
             "http": {"retry": {"maximumCount": 0},
                      "circuitBreaker": {"minimumCalls": 3, "failureRatio": 0.5, "window": 30, "openDuration": 1}}}
            """
        let run = try await runGateway(json: json) { gateway in
            #expect(try await product("1", from: gateway).answer?.price == 9.5)
            await prices.stop()
            // A few calls fail against the closed port, then the breaker answers for it at once.
            var answers: [ProductCall] = []
            for index in 2..<12 where answers.last?.answer?.priceUnavailable?.contains("circuit") != true {
                answers.append(try await product("\(index)", from: gateway))
            }
            #expect(answers.count <= 4, "the circuit opened after its minimum of 3 failing calls: \(answers)")
            #expect(answers.allSatisfy { $0.status == 200 && $0.answer?.name != nil && $0.answer?.price == nil },
                    "the gateway answers without the price while the price service is down: \(answers)")
            let open = try #require(answers.last?.answer?.priceUnavailable)
            #expect(open.contains(prices.url.replacingOccurrences(of: "http://", with: "")) || open.contains("127.0.0.1"), "\(open)")

            try await prices.restart()
            // After the open duration a probe goes through, and the circuit closes.
            try await waitUntil { try await product("back", from: gateway).answer?.price == 9.5 }
            #expect(try await product("again", from: gateway).answer?.price == 9.5)
        }
        #expect(run.status == .exited(0), "\(run.log)")
    }

    @Test func theSessionsRateLimitKeepsABurstUnderTheUpstreamsLimit() async throws {
        let catalog = try await Upstream.start()
        let prices = try await Upstream.start(limit: 5)
        defer { Task { await catalog.stop(); await prices.stop() } }
        // 5 a second, as the price service allows: a burst of 12 waits its turns instead of
        // collecting 429s (the catalog is far from its limit: the stage keeps one per origin).
        let json = """
            {"gateway": {"port": 0}, "upstreams": {"catalog": "\(catalog.url)", "prices": "\(prices.url)"},
             "http": {"retry": {"maximumCount": 0}, "rateLimit": {"requests": 5, "window": 1}}}
            """
        let answers = Locked<[ProductCall]>([])
        let run = try await runGateway(json: json) { gateway in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        let call = try await product("burst-\(index)", from: gateway)
                        answers.withLock { $0.append(call) }
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(run.status == .exited(0), "\(run.log)")
        let received = answers.withLock { $0 }
        #expect(received.count == 12 && received.allSatisfy { $0.answer?.price == 9.5 }, "\(received)")
        #expect(prices.refused == 0 && prices.answered == 12)
    }

    @Test func sigtermMidTrafficFinishesEveryCallInFlightAndExitsCleanly() async throws {
        let catalog = try await Upstream.start()
        let prices = try await Upstream.start()
        defer { Task { await catalog.stop(); await prices.stop() } }
        let json = """
            {"gateway": {"port": 0, "gracePeriod": 0.5}, "upstreams": {"catalog": "\(catalog.url)", "prices": "\(prices.url)"}}
            """
        // Half a second for the session's calls at its own shutdown, less than each call takes:
        // they finish only because the app, shut down first, waits for its requests.
        let calls = 20
        let answers = Locked<[ProductCall]>([])
        let run = try await runGateway(json: json) { gateway in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<calls {
                    group.addTask {
                        let call = try await product("slow-\(index)", from: gateway)
                        answers.withLock { $0.append(call) }
                    }
                }
                // Every call has reached the catalog, which takes a second over each.
                try await waitUntil { catalog.arrived == calls }
                try gateway.terminate()
                try await group.waitForAll()
            }
        }
        #expect(run.status == .exited(0), "\(run.log)")
        let received = answers.withLock { $0 }
        #expect(received.count == calls)
        #expect(received.allSatisfy { $0.status == 200 && $0.answer?.price == 9.5 }, "\(received)")
        #expect(catalog.answered == calls && prices.answered == calls, "counted at the upstreams as at the client")
        #expect(run.log.contains("stopped"), "\(run.log)")
    }

    @Test func aChangeToTheJSONFileAppliesTheNewTimeoutToTheNextCalls() async throws {
        let catalog = try await Upstream.start()
        let prices = try await Upstream.start()
        defer { Task { await catalog.stop(); await prices.stop() } }
        @Sendable func json(timeout: Double) -> String {
            """
            {"gateway": {"port": 0}, "upstreams": {"catalog": "\(catalog.url)", "prices": "\(prices.url)"},
             "http": {"timeout": {"resource": \(timeout)}, "retry": {"maximumCount": 0}}}
            """
        }
        let run = try await runGateway(json: json(timeout: 10)) { gateway in
            #expect(try await product("slow-a", from: gateway).status == 200, "a second is well within 10 s")
            try gateway.changeConfiguration(json(timeout: 0.3))
            let index = Atomic(0)
            try await waitUntil {
                try await product("slow-b\(index.add(1, ordering: .relaxed).newValue)", from: gateway).status == 504
            }
        }
        #expect(run.status == .exited(0), "\(run.log)")
        #expect(run.log.contains("configuration changed: timeout.resource"), "\(run.log)")
    }
}

/// One answer of the gateway's `/products/{id}`.
struct ProductCall: Sendable, CustomStringConvertible {
    struct Answer: Decodable, Sendable {
        var id: String?
        var name: String?
        var price: Double?
        var priceUnavailable: String?
        var error: String?
    }

    var status: Int
    var answer: Answer?
    var text: String

    var description: String { "\(status) \(text)" }
}

/// A client that reports every status instead of throwing for it, and never retries.
let client: HTTPSession = {
    var configuration = HTTPSession.Configuration()
    configuration.retryPolicy = .never
    configuration.shouldTreatStatusCodeAsFailure = { _ in false }
    return HTTPSession(configuration: configuration)
}()

func product(_ id: String, from gateway: GatewayProcess) async throws -> ProductCall {
    let url = try #require(URL(string: "\(gateway.url)/products/\(id)"))
    let response = try await client.send(HTTPRequest(url: url), options: .init(responseProcessors: []))
    return ProductCall(
        status: response.statusCode, answer: try? JSONDecoder().decode(ProductCall.Answer.self, from: response.data),
        text: String(decoding: response.data, as: UTF8.self))
}
