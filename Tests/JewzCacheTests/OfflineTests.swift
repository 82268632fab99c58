import Foundation
import JewzCache
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// stale-if-error, stale-while-revalidate and "cached now, then fresh" (RFC 5861's directives).
@Suite struct OfflineTests {
    @Test func staleIfErrorAnswersA503AndARefusedConnection() async throws {
        let clock = TestClock()
        let cache = HTTPCache(now: clock.now)
        var configuration = HTTPSession.Configuration()
        configuration.cache = cache
        let sandbox = try await Sandbox.start()
        configuration.logger = quietLogger
        let session = HTTPSession(configuration: configuration)
        let url = sandbox.url("/cached/offline?cc=max-age=10,stale-if-error=600")
        // Stored under a key of its own, so that a URL on a port that refuses finds it below.
        let keyed = HTTPRequestOptions.Caching(key: "offline")
        try await fetch(url, session: session, caching: keyed)
        clock.advance(by: 60)
        try await fetch(sandbox.url("/cached/offline/down"), session: session)
        let during = try await fetch(url, session: session, caching: keyed)
        #expect(during.source == .stale)
        #expect(during.bodyText == "offline #1")
        // A key without the directive gives the 503 as it is.
        let plain = sandbox.url("/cached/plain?cc=max-age=10")
        try await fetch(plain, session: session)
        clock.advance(by: 60)
        try await fetch(sandbox.url("/cached/plain/down"), session: session)
        let failure = await #expect(throws: HTTPError.self) { try await fetch(plain, session: session) }
        #expect(failure?.response?.statusCode == 503)
        try await sandbox.shutdown()
        let refused = try await withRefusedURL("/cached/offline") { url in try await fetch(url, session: session, caching: keyed) }
        #expect(refused.source == .stale)
        #expect(refused.bodyText == "offline #1")
        try await session.shutdown()
    }

    @Test func mustRevalidateIsNeverServedStale() async throws {
        let clock = TestClock()
        try await withCachedSandbox(HTTPCache(now: clock.now)) { sandbox, session in
            let url = sandbox.url("/cached/strict?cc=max-age=10,must-revalidate,stale-if-error=600")
            try await fetch(url, session: session)
            clock.advance(by: 60)
            try await fetch(sandbox.url("/cached/strict/down"), session: session)
            await #expect(throws: HTTPError.self) { try await fetch(url, session: session) }
            let maxStale = await #expect(throws: HTTPError.self) {
                try await fetch(url, session: session, headers: ["Cache-Control": "max-stale"])
            }
            #expect(maxStale?.response?.statusCode == 503)
        }
    }

    @Test func staleWhileRevalidateAnswersAtOnceAndRevalidatesOnce() async throws {
        let clock = TestClock()
        let cache = HTTPCache(now: clock.now)
        try await withCachedSandbox(cache) { sandbox, session in
            let url = sandbox.url("/cached/swr?cc=max-age=10,stale-while-revalidate=600&etag=v1")
            try await fetch(url, session: session)
            clock.advance(by: 60)
            let responses = try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
                for _ in 0..<20 { group.addTask { try await fetch(url, session: session) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.allSatisfy { $0.source == .stale })
            // One background revalidation, however many asked; its 304 refreshed what is stored.
            try await withTimeLimit(.seconds(60)) {
                while cache.statistics.revalidations < 1 { try await Task.sleep(for: .milliseconds(5)) }
            }
            #expect(try await fetch(url, session: session).source == .cache)
            #expect(sandbox.router.cacheHits(forKey: "swr") == 2)
            #expect(cache.statistics.revalidations == 1)
        }
    }

    @Test func cachedThenFreshKeepsTheCallsCacheKey() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let keyed = HTTPRequestOptions(caching: .init(key: "shared-key"))
            try await fetch(sandbox.url("/cached/keyed-a?cc=max-age=60&etag=v1"), session: session, caching: keyed.caching)
            // Another URL, the same key: what is stored under it comes first.
            let other = try #require(URL(string: sandbox.url("/cached/keyed-b?cc=max-age=60&etag=v1")))
            var sources: [HTTPResponse.Source] = []
            for try await response in session.responses(cachedThenFresh: HTTPRequest(url: other), options: keyed) {
                sources.append(response.source)
            }
            #expect(sources.first == .cache)
            #expect(sources.count == 2)
        }
    }

    @Test func cachedThenFreshDeliversTwice() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/cached/twice?cc=max-age=60&etag=v1")))
            var first: [HTTPResponse.Source] = []
            for try await response in session.responses(cachedThenFresh: HTTPRequest(url: url)) { first.append(response.source) }
            #expect(first == [.network])
            var second: [HTTPResponse.Source] = []
            for try await response in session.responses(cachedThenFresh: HTTPRequest(url: url)) { second.append(response.source) }
            #expect(second == [.cache, .revalidated])
            let delivered = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[HTTPResponse.Source], any Error>) in
                let sources = Mutex<[HTTPResponse.Source]>([])
                session.responses(cachedThenFresh: HTTPRequest(url: url)) { result in
                    switch result {
                    case .success(let response):
                        let all = sources.withLock { $0.append(response.source); return $0 }
                        if all.count == 2 { continuation.resume(returning: all) }
                    case .failure(let error):
                        continuation.resume(throwing: error)
                    }
                }
            }
            #expect(delivered == [.cache, .revalidated])
        }
    }
}
