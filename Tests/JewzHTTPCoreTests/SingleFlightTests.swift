import JewzHTTPCore
import JewzLocking
import JewzTestSupport
import Testing

/// A value under a lock that tasks can share.
final class Locked<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) { self.value = Mutex(value) }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { value.withLock { body(&$0) } }
}

/// Opens once; whoever waits before is let through then.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// The one single-flight behind coalescing, image downloads, service reuse, token refresh and
/// revalidation: shared, left alone, cancelled by the last, prioritized by the highest.
@Suite struct SingleFlightTests {
    @Test func waitersShareOneFlightAndItsOutcome() async throws {
        let flights = SingleFlight<String, Int>()
        let runs = Locked(0)
        let gate = Gate()
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    try await flights.value(for: "k") {
                        .init {
                            runs.withLock { $0 += 1 }
                            await gate.wait()
                            return 42
                        }
                    }
                }
            }
            try await waitUntil { runs.withLock { $0 } == 1 }
            gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values == Array(repeating: 42, count: 10))
        #expect(runs.withLock { $0 } == 1)
        #expect(flights.count == 0)
    }

    @Test func aWaiterThatLeavesGoesAloneAndTheLastOneOutCancels() async throws {
        let flights = SingleFlight<String, Int>()
        let started = Locked(false)
        let cancelled = Locked(false)
        let work = { @Sendable () -> SingleFlight<String, Int>.Work in
            .init {
                started.withLock { $0 = true }
                do {
                    try await Task.sleep(for: .seconds(300))
                } catch {
                    cancelled.withLock { $0 = true }
                    throw error
                }
                return 1
            }
        }
        let first = Task { try await flights.value(for: "k", starting: work) }
        try await waitUntil { started.withLock { $0 } }
        let joined = Locked(false)
        let second = Task { try await flights.value(for: "k", joined: { joined.withLock { $0 = true } }, starting: work) }
        try await waitUntil { joined.withLock { $0 } }
        first.cancel()
        await #expect(throws: CancellationError.self) { try await first.value }
        #expect(!cancelled.withLock { $0 })
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        try await waitUntil { cancelled.withLock { $0 } }
        #expect(flights.count == 0)
    }

    @Test func theFlightRunsAtItsWaitersHighestPriority() async throws {
        let flights = SingleFlight<String, Int>()
        let priorities = Locked<[RequestPriority]>([])
        let gate = Gate()
        let work = { @Sendable () -> SingleFlight<String, Int>.Work in
            .init(prioritize: { priority in priorities.withLock { $0.append(priority) } }) {
                await gate.wait()
                return 1
            }
        }
        let low = Task { try await flights.value(for: "k", priority: .low, starting: work) }
        try await waitUntil { priorities.withLock { $0 } == [.low] }
        let high = Task { try await flights.value(for: "k", priority: .high, starting: work) }
        try await waitUntil { priorities.withLock { $0 } == [.low, .high] }
        high.cancel()
        try await waitUntil { priorities.withLock { $0 } == [.low, .high, .low] }
        gate.open()
        #expect(try await low.value == 1)
    }

    @Test func replacingCancelsTheRunningFlight() async throws {
        let flights = SingleFlight<String, Int>()
        let runs = Locked(0)
        let first = Task {
            try await flights.value(for: "k") {
                .init {
                    runs.withLock { $0 += 1 }
                    try await Task.sleep(for: .seconds(300))
                    return 1
                }
            }
        }
        try await waitUntil { runs.withLock { $0 } == 1 }
        let second = try await flights.value(for: "k", replacing: true) { .init { 2 } }
        #expect(second == 2)
        await #expect(throws: CancellationError.self) { try await first.value }
    }

    @Test func aFailureToStartReachesEveryWaiterOfTheFlight() async throws {
        struct NoWork: Error {}
        let flights = SingleFlight<String, Int>()
        await #expect(throws: NoWork.self) { try await flights.value(for: "k") { throw NoWork() } }
        #expect(try await flights.value(for: "k") { .init { 3 } } == 3)
    }

    @Test func aLaunchedFlightRunsToItsEndWithNobodyWaiting() async throws {
        let flights = SingleFlight<String, Int>()
        let gate = Gate()
        let runs = Locked(0)
        for _ in 0..<3 {
            flights.launch("k") {
                .init {
                    runs.withLock { $0 += 1 }
                    await gate.wait()
                    return 7
                }
            }
        }
        let joiner = Task { try await flights.value(for: "k") { .init { 0 } } }
        try await waitUntil { runs.withLock { $0 } == 1 }
        joiner.cancel()
        await #expect(throws: CancellationError.self) { try await joiner.value }
        #expect(flights.count == 1)
        gate.open()
        try await waitUntil { flights.count == 0 }
        #expect(runs.withLock { $0 } == 1)
    }
}
