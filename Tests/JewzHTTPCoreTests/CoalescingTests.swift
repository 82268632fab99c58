import Foundation
import JewzLocking
@testable import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

@Suite struct CoalescingTests {
    private let held: QueryParameters = ["key": "shared", "fail": 0, "hold": 0.3]

    @Test func identicalGETsInFlightShareOneExchange() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.coalescesIdenticalGETs = true }
            let texts = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<10 {
                    group.addTask { try await HTTPCycle.get(sandbox.url("/counter"), parameters: held, session: session).text }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            #expect(texts == Array(repeating: "attempt 1 succeeds", count: 10))
            // Once landed, the next request goes to the network again.
            let later = try await HTTPCycle.get(sandbox.url("/counter"), parameters: held, session: session)
            #expect(later.text == "attempt 2 succeeds")
        }
    }

    @Test func aStreamedGETHasAnExchangeOfItsOwnBesideSharedOnes() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.coalescesIdenticalGETs = true }
            #expect(session.stageNames.contains("coalescing"))
            let url = try #require(URL(string: sandbox.url("/counter?key=shared&fail=0&hold=0.3")))
            async let shared = withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<2 { group.addTask { try await session.send(HTTPRequest(url: url)).text } }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            async let streamed = session.stream(HTTPRequest(url: url)).body.collect(upTo: 1 << 20)
            let (texts, streamedBody) = try await (shared, streamed)
            // Three calls at once, two exchanges: the streamed body is read once, by its caller.
            #expect(Set(texts.compactMap { $0 }).count == 1)
            let answers = Set(texts.compactMap { $0 } + [String(decoding: streamedBody, as: UTF8.self)])
            #expect(answers == ["attempt 1 succeeds", "attempt 2 succeeds"])
        }
    }

    @Test func differentHeadersOrCoalescingOffMeanSeparateExchanges() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.coalescesIdenticalGETs = true }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for token in ["a", "b"] {
                    group.addTask {
                        let cycle = try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: held, session: session)
                        cycle.request.headers["Authorization"] = "Bearer \(token)"
                        try await cycle.start()
                    }
                }
                try await group.waitForAll()
            }
            try session.update { $0.coalescesIdenticalGETs = false }
            let probe = try await HTTPCycle.get(sandbox.url("/counter"), parameters: held, session: session)
            #expect(probe.text == "attempt 3 succeeds")
        }
    }

    @Test func oneWaiterCancellingLeavesTheOthersTheirResponse() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.coalescesIdenticalGETs = true }
            let joined = JoinCounter()
            try session.update { $0.eventMonitors = [joined] }
            let cycles = try (0..<3).map { _ in try HTTPCycle(sandbox.url("/counter"), method: .get, parameters: held, session: session) }
            let tasks = cycles.map { cycle in Task { try await cycle.start() } }
            // Wait until all three share the one flight: one started it, two joined.
            try await waitUntil { joined.count >= 2 }
            cycles[0].cancel(explicitly: true)
            guard let error = await httpError({ _ = try await tasks[0].value }), error.code == .cancelled, error.isExplicitCancellation else {
                Issue.record("expected the cancelled waiter to stop")
                return
            }
            #expect(try await tasks[1].value.text == "attempt 1 succeeds")
            #expect(try await tasks[2].value.text == "attempt 1 succeeds")
        }
    }
}

/// Counts the attempts that joined a flight already in the air.
private final class JoinCounter: HTTPEventMonitor {
    private let joins = Mutex(0)

    var count: Int { joins.withLock { $0 } }

    func call(_ call: HTTPCall, didEmit event: HTTPEvent) {
        if case .requestCoalesced = event { joins.withLock { $0 += 1 } }
    }
}
