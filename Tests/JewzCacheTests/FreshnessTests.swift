import Foundation
import JewzCache
import JewzHTTPCore
import JewzTestSupport
import Testing

/// RFC 9111 §4.2: what is fresh is answered without the network.
@Suite struct FreshnessTests {
    @Test func aFreshResponseIsAnsweredFromTheStoreAndCounted() async throws {
        let cache = HTTPCache()
        try await withCachedSandbox(cache) { sandbox, session in
            let url = sandbox.url("/cached/fresh?cc=max-age=60")
            let first = try await fetch(url, session: session)
            let second = try await fetch(url, session: session)
            #expect(first.source == .network)
            #expect(second.source == .cache)
            #expect(second.bodyText == "fresh #1")
            #expect(second.headers["Age"] != nil)
            #expect(sandbox.router.cacheHits(forKey: "fresh") == 1)
            let statistics = cache.statistics
            #expect(statistics.hits == 1)
            #expect(statistics.misses == 1)
            #expect(statistics.networkRequests == 1)
            #expect(statistics.bytesSaved == second.data.count)
        }
    }

    @Test func aCancelledCallerGetsNoAnswerFromTheStore() async throws {
        // The stages above the transport do not ask the task; the run's end does, so a stored
        // answer never reaches a caller that has gone.
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/cached/cancelled?cc=max-age=60")
            _ = try await fetch(url, session: session)
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await HTTPCycle.get(url, session: session)
            }
            let error = await httpError({ _ = try await task.value })
            #expect(error?.code == .cancelled)
            #expect(sandbox.router.cacheHits(forKey: "cancelled") == 1)
        }
    }

    @Test func ageBeyondMaxAgeGoesToTheNetwork() async throws {
        let clock = TestClock()
        try await withCachedSandbox(HTTPCache(now: clock.now)) { sandbox, session in
            let url = sandbox.url("/cached/aging?cc=max-age=30")
            try await fetch(url, session: session)
            clock.advance(by: 20)
            #expect(try await fetch(url, session: session).source == .cache)
            clock.advance(by: 20)
            let late = try await fetch(url, session: session)
            #expect(late.source == .network)
            #expect(late.bodyText == "aging #2")
        }
    }

    @Test func anAgeFromUpstreamCountsAgainstFreshness() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let old = sandbox.url("/cached/old?cc=max-age=60&age=100")
            try await fetch(old, session: session)
            #expect(try await fetch(old, session: session).source == .network)
            let young = sandbox.url("/cached/young?cc=max-age=60&age=10")
            try await fetch(young, session: session)
            let hit = try await fetch(young, session: session)
            #expect(hit.source == .cache)
            #expect(hit.headers["Age"].flatMap(Int.init).map { $0 >= 10 } == true)
        }
    }

    @Test func expiresGivesFreshnessAndAnInvalidExpiresIsStale() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/cached/expires?expires=120")
            try await fetch(url, session: session)
            #expect(try await fetch(url, session: session).source == .cache)
            let past = sandbox.url("/cached/expired?expires=-10")
            try await fetch(past, session: session)
            #expect(try await fetch(past, session: session).source == .network)
        }
    }

    @Test func lastModifiedGivesHeuristicFreshnessToText() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            // Modified an hour ago: fresh for a tenth of that.
            let url = sandbox.url("/cached/heuristic?last-modified=1")
            try await fetch(url, session: session)
            #expect(try await fetch(url, session: session).source == .cache)
            #expect(sandbox.router.cacheHits(forKey: "heuristic") == 1)
        }
    }

    @Test func requestDirectivesNarrowFreshness() async throws {
        let clock = TestClock()
        try await withCachedSandbox(HTTPCache(now: clock.now)) { sandbox, session in
            let url = sandbox.url("/cached/narrow?cc=max-age=100")
            try await fetch(url, session: session)
            clock.advance(by: 50)
            let maxAge = try await fetch(url, session: session, headers: ["Cache-Control": "max-age=10"])
            #expect(maxAge.source == .network)
            let minFresh = try await fetch(url, session: session, headers: ["Cache-Control": "min-fresh=200"])
            #expect(minFresh.source == .network)
            #expect(try await fetch(url, session: session).source == .cache)
            clock.advance(by: 150)
            let maxStale = try await fetch(url, session: session, headers: ["Cache-Control": "max-stale=100"])
            #expect(maxStale.source == .stale)
            #expect(sandbox.router.cacheHits(forKey: "narrow") == 3)
        }
    }

    @Test func noStoreIsNeverStoredAndNoCacheAlwaysAsks() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/cached/nostore?cc=no-store,max-age=60")
            try await fetch(url, session: session)
            #expect(try await fetch(url, session: session).source == .network)
            let requestNoStore = sandbox.url("/cached/reqnostore?cc=max-age=60")
            try await fetch(requestNoStore, session: session, headers: ["Cache-Control": "no-store"])
            #expect(try await fetch(requestNoStore, session: session).source == .network)
            let pragma = sandbox.url("/cached/pragma?cc=max-age=60")
            try await fetch(pragma, session: session)
            #expect(try await fetch(pragma, session: session, headers: ["Pragma": "no-cache"]).source == .network)
        }
    }

    @Test func jsonWithoutCachingHeadersIsNotStoredUnlessConfigured() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let bare = sandbox.url("/cached/json-bare?type=json&last-modified=1")
            try await fetch(bare, session: session)
            #expect(try await fetch(bare, session: session).source == .network)
            let explicit = sandbox.url("/cached/json-explicit?type=json&cc=max-age=60")
            try await fetch(explicit, session: session)
            #expect(try await fetch(explicit, session: session).source == .cache)
        }
        var configuration = HTTPCache.Configuration()
        configuration.storesJSONWithoutCachingHeaders = true
        try await withCachedSandbox(HTTPCache(configuration: configuration)) { sandbox, session in
            let bare = sandbox.url("/cached/json-allowed?type=json&last-modified=1")
            try await fetch(bare, session: session)
            #expect(try await fetch(bare, session: session).source == .cache)
        }
    }
}
