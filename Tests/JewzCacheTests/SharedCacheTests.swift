import Foundation
import JewzCache
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// RFC 9111's rules for shared caches (`isShared`), each beside the private cache's answer.
@Suite struct SharedCacheTests {
    static let shared: HTTPCache.Configuration = {
        var configuration = HTTPCache.Configuration()
        configuration.isShared = true
        return configuration
    }()

    /// Whether a second fetch of a response with `fields`, `after` seconds, came from the cache,
    /// for a shared cache and a private one.
    private func secondFromCache(
        _ fields: [String], after seconds: Double = 0, headers: HTTPHeaderFields = [:]
    ) async throws -> (shared: Bool, private: Bool) {
        var outcome: [Bool] = []
        for configuration in [Self.shared, HTTPCache.Configuration()] {
            let clock = TestClock()
            try await withScriptedCache(clock: clock, configuration: configuration, { _ in ["HTTP/1.1 200 OK"] + fields }) { server, session in
                try await fetch(server.url("/r"), session: session, headers: headers)
                clock.advance(by: seconds)
                outcome.append(try await fetch(server.url("/r"), session: session, headers: headers).source != .network)
            }
        }
        return (outcome[0], outcome[1])
    }

    @Test func sMaxAgeWinsInASharedCacheOnly() async throws {
        let short = try await secondFromCache(["Cache-Control: max-age=600, s-maxage=10"], after: 60)
        #expect(short == (shared: false, private: true))
        let long = try await secondFromCache(["Cache-Control: max-age=10, s-maxage=600"], after: 60)
        #expect(long == (shared: true, private: false))
    }

    @Test func aPrivateResponseIsKeptOutOfASharedCache() async throws {
        #expect(try await secondFromCache(["Cache-Control: private, max-age=600"]) == (shared: false, private: true))
    }

    @Test func aQualifiedPrivateKeepsOnlyItsFieldsOut() async throws {
        try await withScriptedCache(configuration: Self.shared, { _ in
            ["HTTP/1.1 200 OK", #"Cache-Control: max-age=600, private="Set-Cookie""#, "Set-Cookie: id=ada", "X-Kept: yes"]
        }) { server, session in
            try await fetch(server.url("/q"), session: session)
            let stored = try await fetch(server.url("/q"), session: session)
            #expect(stored.source == .cache)
            #expect(stored.headers["Set-Cookie"] == nil)
            #expect(stored.headers["X-Kept"] == "yes")
        }
    }

    // A private cache stores what its one user asked for (s-maxage alone gives it no lifetime).
    @Test(arguments: [
        ("max-age=600", false, true), ("public, max-age=600", true, true), ("must-revalidate, max-age=600", true, true),
        ("s-maxage=600", true, false),
    ])
    func anAuthorizedResponseIsSharedOnlyWhenItSaysSo(_ directives: String, shared: Bool, private: Bool) async throws {
        let outcome = try await secondFromCache(["Cache-Control: \(directives)"], headers: ["Authorization": "Bearer ada"])
        #expect(outcome == (shared: shared, private: `private`))
    }

    @Test func proxyRevalidateBindsASharedCacheOnly() async throws {
        // Stale by 50 s: stale-if-error would answer a failure, unless revalidation is required.
        var outcome: [HTTPResponse.Source] = []
        for configuration in [Self.shared, HTTPCache.Configuration()] {
            let clock = TestClock()
            try await withScriptedCache(clock: clock, configuration: configuration, { request in
                request.index == 0
                    ? ["HTTP/1.1 200 OK", "Cache-Control: max-age=10, proxy-revalidate, stale-if-error=600"] : ["HTTP/1.1 503 Busy"]
            }) { server, session in
                try await fetch(server.url("/p"), session: session)
                clock.advance(by: 60)
                let response = try? await fetch(server.url("/p"), session: session)
                outcome.append(response?.source ?? .network)
            }
        }
        #expect(outcome == [.network, .stale])
    }
}
