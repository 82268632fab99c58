import Foundation
import JewzCookies
import JewzCache
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// The cache and cookies with user middleware around them (#37): application middleware runs
/// before both and sees every call, network middleware runs after both and sees only what goes
/// on the wire, with the jar's cookies.
@Suite struct MiddlewareTests {
    /// What each middleware saw: its name, the path, and the `Cookie` header.
    final class Seen: Sendable {
        private let entries = Mutex<[String]>([])
        var all: [String] { entries.withLock { $0 } }

        func recorder(_ name: String) -> HTTPClosureMiddleware {
            HTTPClosureMiddleware(name) { request, next in
                self.entries.withLock { $0.append("\(name) \(request.url.path) cookie=\(request.headers["Cookie"] ?? "-")") }
                var request = request
                if name == "app" { request.headers["X-App"] = "yes" }
                return try await next(request)
            }
        }
    }

    @Test func aCacheHitSkipsTheNetworkMiddlewareAndCookiesReachIt() async throws {
        let seen = Seen()
        var configuration = HTTPSession.Configuration()
        configuration.cache = HTTPCache()
        configuration.cookieJar = try HTTPCookieJar()
        configuration.middleware = [seen.recorder("app")]
        configuration.networkMiddleware = [seen.recorder("net")]
        try await withSandbox(configuration: configuration) { sandbox, session in
            try await HTTPCycle.get(sandbox.url("/echo"), parameters: ["header": "Set-Cookie:flavour=oat"], session: session)
            let first = try await HTTPCycle.get(sandbox.url("/cached/mw?cc=max-age=60"), session: session)
            let second = try await HTTPCycle.get(sandbox.url("/cached/mw?cc=max-age=60"), session: session)
            #expect(first.source == .network)
            #expect(second.source == .cache)
            #expect(second.text == first.text)
            #expect(seen.all == [
                "app /echo cookie=-", "net /echo cookie=-",
                "app /cached/mw cookie=-", "net /cached/mw cookie=flavour=oat",
                "app /cached/mw cookie=-",
            ])
            let inspected = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            let inspection = try Inspection(inspected)
            #expect(inspection.values("X-App") == ["yes"], "what application middleware adds goes out")
            #expect(inspection.values("Cookie") == ["flavour=oat"])
        }
    }
}
