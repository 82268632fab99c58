import Foundation
import JewzLocking
import Jewzruxin
import JewzSandbox
import JewzTestSupport
import Testing

/// Create, Reuse and Replace with a hundred callers at once, and cycles made without starting.
@Suite struct CycleOptionTests {
    /// The Sandbox holds `repos` this long, so that every caller asks while the first is in flight.
    private let delay: URITemplate.Value = "1500"

    @Test func aHundredCallersReusingShareOneExchange() async throws {
        try await withService { sandbox, service in
            let cycles = try await withThrowingTaskGroup(of: HTTPCycle.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        try await service.request(
                            "repos", values: ["user": "reuse", "type": "json", "delay": delay], identifier: "repos", option: .reuse)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(cycles.count == 100)
            #expect(cycles.allSatisfy { $0 === cycles[0] })
            #expect(sandbox.router.cacheHits(forKey: "reuse-repos") == 1)
            #expect((cycles[0].response?.object as? JSONValue)?["hit"].int == 1)
        }
    }

    /// Tapping "refresh" a hundred times with completion handlers: one exchange, and every
    /// caller called back exactly once, with the same cycle and its response.
    @Test func aHundredCompletionCallersReusingEachHearBackOnce() async throws {
        try await withService { sandbox, service in
            let calls = Mutex<[Int: Int]>([:])
            let cycles = Mutex<Set<ObjectIdentifier>>([])
            let failures = Mutex<[HTTPError]>([])
            var returned: [HTTPCycle] = []
            for caller in 0..<100 {
                returned.append(try service.request(
                    "repos", values: ["user": "tapping", "type": "json", "delay": delay], identifier: "repos", option: .reuse
                ) { cycle, error in
                    calls.withLock { $0[caller, default: 0] += 1 }
                    cycles.withLock { _ = $0.insert(ObjectIdentifier(cycle)) }
                    if let error { failures.withLock { $0.append(error) } }
                })
            }
            try await withTimeLimit(.seconds(60)) {
                try await waitUntil { calls.withLock { $0.values.reduce(0, +) } >= 100 }
            }
            #expect(returned.allSatisfy { $0 === returned[0] })
            #expect(calls.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<100).map { ($0, 1) }), "each caller once")
            #expect(cycles.withLock { $0 } == [ObjectIdentifier(returned[0])])
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 }.prefix(3))")
            #expect(sandbox.router.cacheHits(forKey: "tapping-repos") == 1)
            #expect((returned[0].response?.object as? JSONValue)?["key"].string == "tapping-repos")
            // Awaiting callers join the same run while it lasts, and later ones start another.
            let later = try await service.request("repos", values: ["user": "tapping", "type": "json"], identifier: "repos", option: .reuse)
            #expect(later !== returned[0])
        }
    }

    /// A completion caller replaced by a later `.replace` hears back, with a cancellation.
    @Test func aReplacedCompletionCallerHearsBackCancelled() async throws {
        try await withService { _, service in
            let outcomes = Mutex<[HTTPError?]>([])
            let values: [String: URITemplate.Value] = ["user": "replaced", "type": "json", "delay": delay]
            let first = try service.request("repos", values: values, identifier: "r", option: .replace) { _, error in
                outcomes.withLock { $0.append(error) }
            }
            let second = try await service.request("repos", values: values, identifier: "r", option: .replace)
            #expect(second !== first)
            try await withTimeLimit(.seconds(60)) { try await waitUntil { outcomes.withLock { $0.count } == 1 } }
            #expect(outcomes.withLock { $0.first??.code } == .cancelled)
        }
    }

    @Test func aHundredCallersReplacingLeaveExactlyOneSurvivor() async throws {
        try await withService { _, service in
            let outcomes = await withTaskGroup(of: Result<HTTPCycle, any Error>.self) { group in
                for _ in 0..<100 {
                    group.addTask {
                        do {
                            return .success(try await service.request(
                                "repos", values: ["user": "replace", "type": "json", "delay": delay], identifier: "repos", option: .replace))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let survivors = outcomes.compactMap { try? $0.get() }
            #expect(survivors.count == 1)
            let failures = outcomes.compactMap { outcome -> (any Error)? in
                if case .failure(let error) = outcome { error } else { nil }
            }
            #expect(failures.count == 99)
            #expect(failures.allSatisfy { HTTPError.Code.cancelled ~= $0 }, "\(failures.prefix(3))")
        }
    }

    @Test func createMakesANewExchangeForEveryCaller() async throws {
        try await withService { sandbox, service in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<5 {
                    group.addTask { try await service.request("user", values: ["user": "create", "type": "json"], identifier: "u") }
                }
                try await group.waitForAll()
            }
            #expect(sandbox.router.cacheHits(forKey: "create") == 5)
        }
    }

    @Test func aCycleMadeWithoutStartingIsReusedUntilItFinishes() async throws {
        try await withService { sandbox, service in
            let made = try service.cycle(forResource: "user", values: ["user": "later", "type": "json"], identifier: "later", option: .reuse)
            #expect(made.response == nil)
            #expect(!made.isRunning)
            let again = try service.cycle(forResource: "user", values: ["user": "later", "type": "json"], identifier: "later", option: .reuse)
            #expect(again === made)
            #expect(sandbox.router.cacheHits(forKey: "later") == 0)

            let replaced = try service.cycle(forResource: "user", values: ["user": "later", "type": "json"], identifier: "later", option: .replace)
            #expect(replaced !== made)
            _ = try await replaced.start()
            #expect(sandbox.router.cacheHits(forKey: "later") == 1)
            // Finished, it is no longer reused.
            let next = try service.cycle(forResource: "user", values: ["user": "later", "type": "json"], identifier: "later", option: .reuse)
            #expect(next !== replaced)
        }
    }

    /// A cycle made for an identifier and started by hand is the run a later `.reuse` joins:
    /// one exchange, and both callers hear back once.
    @Test func aReuseJoinsACycleStartedByHandInsteadOfRestartingIt() async throws {
        try await withService { sandbox, service in
            // Held long enough that a busy machine makes all three calls while it is in flight.
            let values: [String: URITemplate.Value] = ["user": "byhand", "type": "json", "delay": "15000"]
            let made = try service.cycle(forResource: "repos", values: values, identifier: "byhand", option: .reuse)
            let heard = Mutex<[String: [HTTPError?]]>([:])
            made.start { _, error in heard.withLock { $0["first", default: []].append(error) } }
            try await waitUntil { sandbox.router.cacheHits(forKey: "byhand-repos") == 1 }
            let joined = try service.request("repos", values: values, identifier: "byhand", option: .reuse) { _, error in
                heard.withLock { $0["second", default: []].append(error) }
            }
            #expect(joined === made)
            let awaited = try await service.request("repos", values: values, identifier: "byhand", option: .reuse)
            #expect(awaited === made)
            try await withTimeLimit(.seconds(60)) { try await waitUntil { heard.withLock { $0.values.map(\.count).reduce(0, +) } == 2 } }
            #expect(heard.withLock { $0["first"]?.count } == 1)
            #expect(heard.withLock { $0["second"]?.count } == 1)
            #expect(heard.withLock { $0.values.flatMap { $0 }.allSatisfy { $0 == nil } })
            #expect(sandbox.router.cacheHits(forKey: "byhand-repos") == 1, "one exchange for all three")
        }
    }

    @Test func aReusingCallerThatIsCancelledLeavesTheExchangeToTheOthers() async throws {
        try await withService { sandbox, service in
            let values: [String: URITemplate.Value] = ["user": "leave", "type": "json", "delay": delay]
            let leaving = Task { try await service.request("repos", values: values, identifier: "leave", option: .reuse) }
            let staying = Task { try await service.request("repos", values: values, identifier: "leave", option: .reuse) }
            try await waitUntil { sandbox.router.cacheHits(forKey: "leave-repos") == 1 }
            leaving.cancel()
            let left = await #expect(throws: HTTPError.self) { try await leaving.value }
            #expect(left?.code == .cancelled)
            let kept = try await staying.value
            #expect((kept.response?.object as? JSONValue)?["key"].string == "leave-repos")
            #expect(sandbox.router.cacheHits(forKey: "leave-repos") == 1)
        }
    }
}
