import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import JewzWebSocket
import Testing

/// `withReconnectingWebSocket`: a new connection after each one the server ends or that fails,
/// a refusal thrown at once, failures in a row bounded.
@Suite struct ReconnectionTests {
    private let quick = WebSocketReconnection(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(40), maximumFailures: 2)

    @Test func aConnectionTheServerClosesIsOpenedAgainUntilTheBodyReturns() async throws {
        try await withSandbox { sandbox, session in
            let request = HTTPRequest(url: try #require(URL(string: sandbox.url("/ws/echo"))))
            let (result, seen) = try await session.withReconnectingWebSocket(request, reconnection: quick) { socket, connection in
                guard connection < 2 else { return (connection, socket.subprotocol) }
                try await socket.send(text: "close:4000:again")
                for try await _ in socket.messages {}
                return nil
            }
            #expect(result == 2)
            #expect(seen == nil)
        }
    }

    @Test func aRefusalIsThrownWithoutAnotherAttempt() async throws {
        try await withSandbox { sandbox, session in
            let request = HTTPRequest(url: try #require(URL(string: sandbox.url("/ws/nothing-here"))))
            let attempts = Counter()
            await #expect {
                try await session.withReconnectingWebSocket(request, reconnection: quick) { _, _ in
                    attempts.increment()
                    return true
                }
            } throws: { ($0 as? WebSocketError)?.response?.statusCode == 426 }
            #expect(attempts.value == 0)
        }
    }

    @Test func failuresToOpenInARowEndWithTheLastOne() async throws {
        // A port held, and never listened on, for the whole test: one a shut-down server gave
        // up could be taken by another test's server meanwhile.
        try await withRefusingPort { port in
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/ws/echo"))
            var options = WebSocketOptions()
            options.request.retryPolicy = .never
            let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
            let started = ContinuousClock.now
            let error = await httpError {
                _ = try await session.withReconnectingWebSocket(HTTPRequest(url: url), options: options, reconnection: quick) { _, _ in true }
            }
            #expect(error?.code == .connectionFailed)
            // Three attempts: two waits of 10 and 20 ms between them.
            #expect(ContinuousClock.now - started >= .milliseconds(30))
            try await session.shutdown()
        }
    }
}

/// A count that a closure can raise.
private final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

