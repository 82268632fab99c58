import Foundation
import JewzCache
import JewzHTTPCore
import JewzTestSupport
import Testing

/// RFC 9111 §4.3: stale responses with validators are revalidated; a 304 serves the stored body.
@Suite struct ValidationTests {
    @Test func aStaleResponseWithAnETagIsRevalidated() async throws {
        let clock = TestClock()
        let cache = HTTPCache(now: clock.now)
        try await withCachedSandbox(cache) { sandbox, session in
            let url = sandbox.url("/cached/etag?cc=max-age=10&etag=v1")
            try await fetch(url, session: session)
            clock.advance(by: 30)
            let revalidated = try await fetch(url, session: session)
            #expect(revalidated.source == .revalidated)
            #expect(revalidated.statusCode == 200)
            #expect(revalidated.bodyText == "etag #1")
            #expect(sandbox.router.cacheHits(forKey: "etag") == 2)
            #expect(cache.statistics.revalidations == 1)
        }
    }

    @Test func noCacheRevalidatesEveryTimeWithLastModified() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/cached/ims?cc=no-cache&last-modified=1")
            try await fetch(url, session: session)
            for _ in 0..<2 {
                let response = try await fetch(url, session: session)
                #expect(response.source == .revalidated)
                #expect(response.bodyText == "ims #1")
            }
            #expect(sandbox.router.cacheHits(forKey: "ims") == 3)
        }
    }

    @Test func aConditionalRequestOfTheCallersOwnIsLeftAlone() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/cached/own?cc=no-cache&etag=v1")
            try await fetch(url, session: session)
            let response = try await fetch(url, session: session, headers: ["If-None-Match": "\"v1\""])
            #expect(response.statusCode == 304)
            #expect(response.source == .network)
        }
    }

    @Test func policiesChooseBetweenStoreAndNetwork() async throws {
        let clock = TestClock()
        try await withCachedSandbox(HTTPCache(now: clock.now)) { sandbox, session in
            let url = sandbox.url("/cached/policy?cc=max-age=10&etag=v1")
            try await fetch(url, session: session)
            #expect(try await fetch(url, session: session, caching: .init(policy: .reloadIgnoringCache)).source == .network)
            #expect(try await fetch(url, session: session, caching: .init(policy: .revalidate)).source == .revalidated)
            clock.advance(by: 60)
            #expect(try await fetch(url, session: session, caching: .init(policy: .returnCacheElseLoad)).source == .stale)
            #expect(try await fetch(url, session: session, caching: .init(policy: .onlyIfCached)).source == .stale)
            #expect(sandbox.router.cacheHits(forKey: "policy") == 3)
            let missing = await #expect(throws: HTTPError.self) {
                try await fetch(sandbox.url("/cached/absent"), session: session, caching: .init(policy: .onlyIfCached))
            }
            #expect(missing?.response?.statusCode == 504)
            #expect(missing?.response?.source == .cache)
            #expect(sandbox.router.cacheHits(forKey: "absent") == 0)
        }
    }

    @Test func aLifetimeOfTheRequestWinsOverTheHeaders() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let bare = sandbox.url("/cached/lifetime")
            try await fetch(bare, session: session, caching: .init(lifetime: .seconds(60)))
            #expect(try await fetch(bare, session: session).source == .cache)
            let never = sandbox.url("/cached/never?cc=max-age=600")
            try await fetch(never, session: session, caching: .init(lifetime: .zero))
            #expect(try await fetch(never, session: session).source == .network)
        }
    }
}
