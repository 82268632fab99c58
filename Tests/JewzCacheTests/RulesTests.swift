import Foundation
import JewzCache
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// RFC 9111 as the cache reads what servers send (#38): variants side by side, strict dates,
/// `Age`, hop-by-hop fields, stale-if-error's statuses, invalidation, the heuristic's bound.
@Suite struct RulesTests {
    @Test(arguments: ["memory", "disk"]) func variantsOfOneURLAreKeptSideBySide(store kind: String) async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-variants")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store: any CacheStore = kind == "memory" ? MemoryCacheStore() : try DiskCacheStore(directory: directory)
        try await withScriptedCache(store: store, { _ in ["HTTP/1.1 200 OK", "Cache-Control: max-age=600", "Vary: Accept"] }) { server, session in
            let url = server.url("/negotiated")
            let a1 = try await fetch(url, session: session, headers: ["Accept": "text/a"])
            let b1 = try await fetch(url, session: session, headers: ["Accept": "text/b"])
            let a2 = try await fetch(url, session: session, headers: ["Accept": "text/a"])
            let b2 = try await fetch(url, session: session, headers: ["Accept": "text/b"])
            #expect([a1.source, b1.source, a2.source, b2.source] == [.network, .network, .cache, .cache])
            #expect(a2.bodyText == a1.bodyText)
            #expect(b2.bodyText == b1.bodyText)
            #expect(server.requestCount == 2, "two variants, two requests")
        }
    }

    @Test func variantsPerURLAreBoundedAndVaryStarIsNeverStored() async throws {
        try await withScriptedCache({ request in
            request.target == "/star" ? ["HTTP/1.1 200 OK", "Cache-Control: max-age=600", "Vary: *"]
                : ["HTTP/1.1 200 OK", "Cache-Control: max-age=600", "Vary: X-Variant"]
        }) { server, session in
            for variant in 0..<6 { try await fetch(server.url("/many"), session: session, headers: ["X-Variant": "\(variant)"]) }
            // The default keeps four: the first two are gone, the last four answer.
            #expect(try await fetch(server.url("/many"), session: session, headers: ["X-Variant": "5"]).source == .cache)
            #expect(try await fetch(server.url("/many"), session: session, headers: ["X-Variant": "2"]).source == .cache)
            #expect(try await fetch(server.url("/many"), session: session, headers: ["X-Variant": "0"]).source == .network)
            try await fetch(server.url("/star"), session: session)
            #expect(try await fetch(server.url("/star"), session: session).source == .network)
        }
    }

    /// RFC 9111 §5.3: an `Expires` that is not one of RFC 9110's three date forms is already
    /// expired, however far ahead the lenient cookie reader would put it.
    @Test(arguments: [
        ("Sun 06 Nov 2094 08:49:37 GMT", false), ("Sun, 06 Nov 94 08:49:37 GMT", false), ("Sun,  06 Nov 2094 08:49:37 GMT", false),
        ("Sun, 06-Nov-2094 08:49:37 GMT", false), ("Sun, 06 Nov 2094 8:49:37 GMT", false), ("Sun, 06 Nov 2094 08:49:37 UTC", false),
        ("Fri, 06 Nov 2094 08:49:37 GMT", true), ("Saturday, 06-Nov-60 08:49:37 GMT", true), ("Sat Nov  6 08:49:37 2094", true),
        // §5.3's latitude: the names in any case, the forms exact.
        ("fri, 06 nov 2094 08:49:37 gmt", true), ("SATURDAY, 06-NOV-60 08:49:37 GMT", true), ("sat nov  6 08:49:37 2094", true),
        ("fri,06 nov 2094 08:49:37 gmt", false), ("0", false),
    ])
    func anExpiresThatIsNoHTTPDateIsExpired(_ expires: String, fresh: Bool) async throws {
        try await withScriptedCache({ _ in ["HTTP/1.1 200 OK", "Expires: \(expires)"] }) { server, session in
            try await fetch(server.url("/expires"), session: session)
            let again = try await fetch(server.url("/expires"), session: session)
            #expect(again.source == (fresh ? .cache : .network), "Expires: \(expires)")
        }
    }

    @Test func twoExpiresFieldsAreNoDate() async throws {
        let future = "Fri, 06 Nov 2094 08:49:37 GMT"
        try await withScriptedCache({ _ in ["HTTP/1.1 200 OK", "Expires: \(future)", "Expires: \(future)"] }) { server, session in
            try await fetch(server.url("/twice"), session: session)
            #expect(try await fetch(server.url("/twice"), session: session).source == .network)
        }
    }

    /// §5.1: `Age` is a non-negative integer; an invalid one is ignored, and of a list (or of
    /// two fields) the first counts.
    @Test(arguments: [(["Age: 7200.0"], true), (["Age: 7200"], false), (["Age: 7200, 0"], false), (["Age: 7200", "Age: 0"], false), (["Age: -5"], true)])
    func ageIsTheFirstNonNegativeInteger(_ age: [String], fresh: Bool) async throws {
        try await withScriptedCache({ _ in ["HTTP/1.1 200 OK", "Cache-Control: max-age=3600"] + age }) { server, session in
            try await fetch(server.url("/aged"), session: session)
            #expect(try await fetch(server.url("/aged"), session: session).source == (fresh ? .cache : .network), "\(age)")
        }
    }

    /// §3.1: `Connection`, the fields it names and the other hop-by-hop fields are not stored.
    @Test func connectionFieldsAreNotStored() async throws {
        try await withScriptedCache({ _ in
            ["HTTP/1.1 200 OK", "Cache-Control: max-age=600", "Connection: X-Hop", "X-Hop: secret", "Keep-Alive: timeout=5", "X-Kept: yes"]
        }) { server, session in
            try await fetch(server.url("/hop"), session: session)
            let stored = try await fetch(server.url("/hop"), session: session)
            #expect(stored.source == .cache)
            #expect(stored.headers["X-Kept"] == "yes")
            #expect(stored.headers["X-Hop"] == nil)
            #expect(stored.headers["Connection"] == nil)
            #expect(stored.headers["Keep-Alive"] == nil)
        }
    }

    @Test(arguments: [500, 502, 503, 504]) func staleIfErrorAnswersServerFailures(_ status: Int) async throws {
        let clock = TestClock()
        try await withScriptedCache(clock: clock, { request in
            request.index == 0 ? ["HTTP/1.1 200 OK", "Cache-Control: max-age=10, stale-if-error=600"] : ["HTTP/1.1 \(status) Failing"]
        }) { server, session in
            let first = try await fetch(server.url("/failing"), session: session)
            clock.advance(by: 60)
            let stale = try await fetch(server.url("/failing"), session: session)
            #expect(stale.source == .stale)
            #expect(stale.bodyText == first.bodyText)
            #expect(server.requestCount == 2)
        }
    }

    /// §4.2.2: without explicit freshness, a tenth of the time since `Last-Modified`, at most a week.
    @Test(arguments: [(10.0, 0.9, true), (10.0, 1.1, false), (3650.0, 6.9, true), (3650.0, 7.1, false)])
    func heuristicFreshnessIsATenthOfTheAgeAtMostAWeek(modifiedDaysAgo: Double, afterDays: Double, fresh: Bool) async throws {
        let clock = TestClock()
        let modified = HTTPDate.string(from: Date().addingTimeInterval(-modifiedDaysAgo * 86_400))
        try await withScriptedCache(clock: clock, { _ in ["HTTP/1.1 200 OK", "Last-Modified: \(modified)"] }) { server, session in
            try await fetch(server.url("/heuristic"), session: session)
            clock.advance(by: afterDays * 86_400)
            #expect(try await fetch(server.url("/heuristic"), session: session).source == (fresh ? .cache : .network))
        }
    }

    @Test func anUnsafeMethodInvalidatesItsContentLocation() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let target = sandbox.url("/cached/described?cc=max-age=60")
            try await fetch(target, session: session)
            #expect(try await fetch(target, session: session).source == .cache)
            let post = sandbox.url("/echo/?header=Content-Location:%2Fcached%2Fdescribed%3Fcc%3Dmax-age%3D60")
            #expect(try await fetch(post, session: session, method: .post).statusCode == 200)
            #expect(try await fetch(target, session: session).source == .network)
        }
    }

    /// §5.2.2.3: `must-understand` stores a status whose rules the cache knows despite
    /// `no-store`, and no status it does not know.
    @Test(arguments: [("HTTP/1.1 200 OK", true), ("HTTP/1.1 404 Not Found", true), ("HTTP/1.1 299 Unknown", false)])
    func mustUnderstandStoresAKnownStatusDespiteNoStore(_ status: String, stored: Bool) async throws {
        var configuration = HTTPCache.Configuration()
        configuration.isShared = true
        try await withScriptedCache(configuration: configuration, { _ in [status, "Cache-Control: must-understand, no-store, max-age=60"] }) { server, session in
            // A 404 fails the cycle, with the response on the error.
            func answer() async throws -> HTTPResponse {
                do {
                    return try await fetch(server.url("/understood"), session: session)
                } catch let error as HTTPError {
                    guard let response = error.response else { throw error }
                    return response
                }
            }
            let first = try await answer()
            let second = try await answer()
            #expect(first.source == .network)
            #expect(second.source == (stored ? .cache : .network), "\(status)")
        }
    }

    /// RFC 9110 §9.3.3: a POST's answer that names its own URL in `Content-Location` and says
    /// how long it stays fresh answers a later GET of that URL; without freshness, or about
    /// another URL, it does not.
    @Test func aPOSTsFreshAnswerAboutItsOwnURLAnswersALaterGET() async throws {
        try await withScriptedCache({ request in
            switch request.target {
            case "/item": ["HTTP/1.1 200 OK", "Cache-Control: max-age=60", "Content-Location: /item"]
            case "/plain": ["HTTP/1.1 200 OK", "Content-Location: /plain"]
            default: ["HTTP/1.1 200 OK", "Cache-Control: max-age=60", "Content-Location: /item"]
            }
        }) { server, session in
            let posted = try await fetch(server.url("/item"), session: session, method: .post)
            let got = try await fetch(server.url("/item"), session: session)
            #expect(got.source == .cache)
            #expect(got.bodyText == posted.bodyText)
            try await fetch(server.url("/plain"), session: session, method: .post)
            #expect(try await fetch(server.url("/plain"), session: session).source == .network)
            // About another URL: it invalidates that one and stores nothing for its own.
            try await fetch(server.url("/other"), session: session, method: .post)
            #expect(try await fetch(server.url("/other"), session: session).source == .network)
            #expect(try await fetch(server.url("/item"), session: session).source == .network)
        }
    }

    /// The same for a POST read as a stream: its body goes into the store as it is read, and
    /// the later GET gets that body, not an empty one.
    @Test func aStreamedPOSTsFreshAnswerIsStoredAsItIsRead() async throws {
        try await withScriptedCache({ _ in
            ["HTTP/1.1 200 OK", "Cache-Control: max-age=60", "Content-Location: /item"]
        }) { server, session in
            let cycle = HTTPCycle(requestURL: try #require(URL(string: server.url("/item"))), requestMethod: .post, session: session)
            let body = try await cycle.startStreaming().body
            let posted = try await body.collect(upTo: 1 << 10)
            #expect(!posted.isEmpty)
            let got = try await fetch(server.url("/item"), session: session)
            #expect(got.source == .cache)
            #expect(got.data == posted)
        }
    }
}
