import Foundation
import JewzAuth
import JewzEventSource
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

/// `HTTPEventSource` against the Sandbox's `/events/KEY`, which resumes after `Last-Event-ID`.
@Suite struct HTTPEventSourceTests {
    /// Reconnections in tests wait milliseconds, not the default 3 s.
    static let quick = HTTPEventSource.Configuration(defaultRetry: .milliseconds(5), minimumBackoff: .milliseconds(5))

    private func collect(_ source: HTTPEventSource) async throws -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for try await event in source { events.append(event) }
        return events
    }

    @Test(arguments: TransportKind.allCases)
    func aStreamResumesAfterItsLastEventIDUntilA204(transport: TransportKind) async throws {
        let connections = Atomic(0)
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [HTTPClosureMiddleware("count") { request, next in
            connections.add(1, ordering: .relaxed)
            return try await next(request)
        }]
        try await withSandbox(configuration: configuration, transport: transport) { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/events/resume?count=5&per=2&retry=10")))
            let events = try await collect(HTTPEventSource(url: url, session: session))
            #expect(events.map(\.data) == (1...5).map { #"{"n":\#($0)}"# })
            #expect(events.map(\.id) == ["1", "2", "3", "4", "5"])
            #expect(events.allSatisfy { $0.type == "tick" })
            // Three streams of at most two events, then the 204 that ends it.
            #expect(sandbox.router.lastEventIDs(forKey: "resume") == ["", "2", "4", "5"])
            #expect(connections.load(ordering: .relaxed) == 4, "every connection goes through the network middleware")
        }
    }

    @Test func aStreamOpenedByTheCallerIsReadFirstThenResumed() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/events/opened?count=3&per=2&retry=5")))
            let cycle = HTTPCycle(requestURL: url, session: session)
            let opened = try await cycle.startStreaming()
            let (response, body) = (opened.head, opened.body)
            #expect(response.headers["Content-Type"] == "text/event-stream")
            let events = try await collect(HTTPEventSource(continuing: body, request: cycle.request, session: session, configuration: Self.quick))
            #expect(events.map(\.id) == ["1", "2", "3"])
            #expect(sandbox.router.lastEventIDs(forKey: "opened") == ["", "2", "3"])
        }
    }

    @Test func withoutReconnectionTheFirstStreamIsAll() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/events/once?count=5&per=2")))
            var configuration = Self.quick
            configuration.reconnects = false
            let events = try await collect(HTTPEventSource(url: url, session: session, configuration: configuration))
            #expect(events.map(\.id) == ["1", "2"])
            #expect(sandbox.router.lastEventIDs(forKey: "once") == [""])
        }
    }

    @Test func aStoredLastEventIDResumesTheFirstConnection() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/events/stored?count=4")))
            var configuration = Self.quick
            configuration.lastEventID = "2"
            let events = try await collect(HTTPEventSource(url: url, session: session, configuration: configuration))
            #expect(events.map(\.id) == ["3", "4"])
            #expect(sandbox.router.lastEventIDs(forKey: "stored") == ["2", "4"])
        }
    }

    @Test func aDroppedConnectionIsResumed() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/events/dropped?count=4&per=2&end=drop")))
            let events = try await collect(HTTPEventSource(url: url, session: session, configuration: Self.quick))
            #expect(events.map(\.id) == ["1", "2", "3", "4"])
            #expect(sandbox.router.lastEventIDs(forKey: "dropped") == ["", "2", "4"])
        }
    }

    @Test func anAnswerThatIsNoEventStreamStopsWithoutReconnecting() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/events/plain?type=text/plain")))
            let error = await #expect(throws: EventSourceError.self) {
                try await collect(HTTPEventSource(url: url, session: session, configuration: Self.quick))
            }
            #expect(error?.code == .notAnEventStream)
            #expect(error?.description.contains("'text/plain'") == true)
            #expect(sandbox.router.lastEventIDs(forKey: "plain").count == 1)
        }
    }

    @Test func aFailingStatusIsThrownNotRetried() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/events/locked?auth=token")))
            let error = await #expect(throws: HTTPError.self) {
                try await collect(HTTPEventSource(url: url, session: session, configuration: Self.quick))
            }
            #expect(error?.code == .statusCode)
            #expect(error?.statusCode == 401)
            #expect(sandbox.router.lastEventIDs(forKey: "locked").count == 1)
        }
    }

    @Test func aTokenRefreshedBetweenConnectionsIsTheOneSent() async throws {
        try await withSandbox { sandbox, session in
            let refreshes = Atomic(0)
            // Tokens come from a session of their own: asking the session they authorize would
            // wait for the refresh in flight, which is this one.
            let issuer = HTTPSession(configuration: .init { $0.logger = quietLogger })
            defer { Task { try? await issuer.shutdown() } }
            let tokens = TokenAuthenticator {
                refreshes.add(1, ordering: .relaxed)
                let issued = try await HTTPCycle.get(sandbox.url("/token/issue"), session: issuer)
                let object = try JSONSerialization.jsonObject(with: issued.data ) as? [String: String]
                return .init(token: try #require(object?["token"]))
            }
            try session.update { $0.authentications = [tokens] }
            let url = try #require(URL(string: sandbox.url("/events/private?count=4&per=2&auth=token")))
            var ids: [String] = []
            for try await event in HTTPEventSource(url: url, session: session, configuration: Self.quick) {
                ids.append(event.id)
                // Between the first stream and the second, every token expires.
                if event.id == "2" { _ = try await HTTPCycle.get(sandbox.url("/token/expire"), session: session) }
            }
            #expect(ids == ["1", "2", "3", "4"])
            #expect(refreshes.load(ordering: .relaxed) == 2)
            #expect(sandbox.router.tokensIssued == 2)
            // The expired token's 401 and the new token's stream, both resuming after 2.
            #expect(sandbox.router.lastEventIDs(forKey: "private") == ["", "2", "2", "4"])
        }
    }

    @Test func cancellingTheLoopClosesTheConnection() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/events/held?count=1&end=hold")))
            let first = AsyncStream<Void>.makeStream()
            let reader = Task {
                for try await _ in HTTPEventSource(url: url, session: session, configuration: Self.quick) {
                    first.continuation.yield()
                }
            }
            for await _ in first.stream { break }
            #expect(sandbox.openConnectionCount == 1)
            reader.cancel()
            let outcome = await reader.result
            #expect(throws: (any Error).self) { try outcome.get() }
            try await waitUntil { sandbox.openConnectionCount == 0 }
        }
    }

    @Test func connectionsFailingInARowEndWithTheLastFailure() async throws {
        var session = HTTPSession.Configuration()
        session.retryPolicy = .never
        try await withSandbox(configuration: session) { sandbox, session in
            // A port held and never listening: every connection is refused.
            var configuration = Self.quick
            configuration.maximumReconnectAttempts = 3
            let error = try await withRefusedURL("/events/gone") { text in
                let url = try #require(URL(string: text))
                return await #expect(throws: EventSourceError.self) {
                    try await collect(HTTPEventSource(url: url, session: session, configuration: configuration))
                }
            }
            #expect(error?.code == .tooManyReconnects)
            #expect((error?.underlying as? HTTPError)?.code == .connectionFailed)
        }
    }

    // MARK: Hostile streams

    /// The head of an event stream of unknown length, sent by a scripted server.
    private static let streamHead = responseHead("HTTP/1.1 200 OK", ["Content-Type: text/event-stream", "Connection: close"])

    @Test func aServerEndingEveryStreamAtOnceMeetsTheBackOff() async throws {
        try await withScriptedServer({ _ in [.send(Self.streamHead + "retry: 0\n\n"), .close] }) { server, session in
            let url = try #require(URL(string: server.url("/storm")))
            let storm = HTTPEventSource.Configuration(minimumBackoff: .milliseconds(40))
            let started = ContinuousClock.now
            let reader = Task { for try await _ in HTTPEventSource(url: url, session: session, configuration: storm) {} }
            try await waitUntil { server.requestCount >= 4 }
            // Before the fourth connection: 40 + 80 + 160 ms of back-off, whatever `retry: 0` asked.
            #expect(started.duration(to: .now) >= .milliseconds(280))
            reader.cancel()
            _ = await reader.result
            var configuration = storm
            configuration.maximumReconnectAttempts = 2
            let error = await #expect(throws: EventSourceError.self) {
                for try await _ in HTTPEventSource(url: url, session: session, configuration: configuration) {}
            }
            #expect(error?.code == .tooManyReconnects)
            #expect((error?.underlying as? EventSourceError)?.code == .emptyStream)
        }
    }

    @Test func anEndlessLineOrEventIsAnErrorNotMemory() async throws {
        try await withScriptedServer({ request in
            request.target == "/line"
                ? [.send(Self.streamHead + "data: "), .sendForever(Array(repeating: UInt8(ascii: "x"), count: 1 << 16))]
                : [.send(Self.streamHead), .sendForever(Array("data: endless\n".utf8))]
        }) { server, session in
            let configuration = HTTPEventSource.Configuration(maximumLineLength: 64 << 10, maximumEventSize: 256 << 10)
            let line = await #expect(throws: HTTPError.self) {
                for try await _ in HTTPEventSource(url: try #require(URL(string: server.url("/line"))), session: session, configuration: configuration) {}
            }
            #expect(line?.code == .lineTooLong)
            let event = await #expect(throws: EventSourceError.self) {
                for try await _ in HTTPEventSource(url: try #require(URL(string: server.url("/event"))), session: session, configuration: configuration) {}
            }
            #expect(event?.code == .eventTooLarge)
            // Neither was sent again: the limits are the server's fault, not the connection's.
            #expect(server.requestCount == 2)
        }
    }
}
