import Foundation
import JewzLocking
import Jewzruxin
import JewzSandbox

/// The tour's steps about the HTTP cache: fresh answers without the network, revalidation,
/// and a stale answer while the server is down.
extension TourStep {
    static func cacheSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "An HTTP cache on disk (RFC 9111): a fresh response answers again without the network",
                code: """
                    var configuration = HTTPSession.Configuration()
                    configuration.cache = try HTTPCache(directory: cacheDirectory)
                    let session = HTTPSession(configuration: configuration)
                    let first = try await HTTPCycle.get(url("/cached/tour?cc=max-age=60&etag=v1"), session: session)
                    let again = try await HTTPCycle.get(url("/cached/tour?cc=max-age=60&etag=v1"), session: session)
                    let confirmed = try await session.send(HTTPRequest(url: tourURL),
                                                           options: .init(caching: .init(policy: .revalidate)))  // 304 keeps the stored body
                    """
            ) {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-tour-cache-\(getpid())")
                defer { try? FileManager.default.removeItem(at: directory) }
                var configuration = HTTPSession.Configuration()
                configuration.cache = try HTTPCache(directory: directory)
                let session = HTTPSession(configuration: configuration)
                let first = try await HTTPCycle.get(url("/cached/tour?cc=max-age=60&etag=v1"), session: session)
                let again = try await HTTPCycle.get(url("/cached/tour?cc=max-age=60&etag=v1"), session: session)
                let revalidate = try HTTPCycle(url("/cached/tour?cc=max-age=60&etag=v1"), method: .get, session: session)
                revalidate.options.caching.policy = .revalidate
                let confirmed = try await revalidate.start()
                try await session.shutdown()
                let sources = [first.source, again.source, confirmed.source].map { "\($0)" }
                return Outcome(
                    "\(sources.joined(separator: ", ")); the server saw \(sandbox.router.cacheHits(forKey: "tour"))",
                    expected: "network, cache, revalidated; the server saw 2")
            },
            TourStep(
                title: "A Range of a stored body is answered from the cache (206), and selecting values compare normalised",
                code: """
                    try await HTTPCycle.get(url("/cached/span?cc=max-age=60&size=100"), session: session)
                    let part = try await HTTPCycle.get(url("/cached/span?cc=max-age=60&size=100"), headers: ["Range": "bytes=90-"], session: session)
                    part.statusCode                 // 206, Content-Range: bytes 90-99/100, from the cache
                    // Vary: Accept-Language — "en-US, fr;q=0.5" and "fr;q=0.5,EN-us" select the same stored variant
                    """
            ) {
                var configuration = HTTPSession.Configuration()
                configuration.cache = HTTPCache()
                let session = HTTPSession(configuration: configuration)
                let span = url("/cached/span?cc=max-age=60&size=100")
                try await HTTPCycle.get(span, session: session)
                let part = try await HTTPCycle.get(span, headers: ["Range": "bytes=90-"], session: session)
                let varying = url("/cached/tour-lang?cc=max-age=60&vary=Accept-Language")
                try await HTTPCycle.get(varying, headers: ["Accept-Language": "en-US, fr;q=0.5"], session: session)
                let same = try await HTTPCycle.get(varying, headers: ["Accept-Language": "fr;q=0.5,EN-us"], session: session)
                try await session.shutdown()
                return Outcome(
                    "\(part.statusCode) \(part.headers["Content-Range"] ?? "-") \(part.source); "
                        + "variant \(same.source); the server saw \(sandbox.router.cacheHits(forKey: "span"))",
                    expected: "206 bytes 90-99/100 cache; variant cache; the server saw 1")
            },
            TourStep(
                title: "Offline-first: stale-if-error answers with the stored copy while the server is down",
                code: """
                    // Cache-Control: max-age=0, stale-if-error=600
                    try await HTTPCycle.get(url("/cached/outage?cc=max-age=0,stale-if-error=600"), session: session)
                    try await HTTPCycle.get(url("/cached/outage/down"))   // the server now answers 503
                    let during = try await HTTPCycle.get(url("/cached/outage?cc=max-age=0,stale-if-error=600"), session: session)
                    """
            ) {
                var configuration = HTTPSession.Configuration()
                configuration.cache = HTTPCache()
                let session = HTTPSession(configuration: configuration)
                let outage = url("/cached/outage?cc=max-age=0,stale-if-error=600")
                try await HTTPCycle.get(outage, session: session)
                try await HTTPCycle.get(url("/cached/outage/down"))
                let during = try await HTTPCycle.get(outage, session: session)
                try await HTTPCycle.get(url("/cached/outage/up"))
                try await session.shutdown()
                return Outcome(
                    "\(during.source): \(during.text ?? "")",
                    expected: "stale: outage #1")
            },
            TourStep(
                title: "A download cut off is kept as a piece: each next one asks the server only for the rest",
                code: """
                    // The server closes every answer after 400,000 body bytes of the 1,000,000.
                    let big = url("/download/1000000?drop=400000")
                    try? await HTTPCycle.download(big, session: session) { _, _ in }   // cut at 400,000: kept
                    try? await HTTPCycle.download(big, session: session) { _, _ in }   // Range: bytes=400000-, cut at 800,000
                    try await HTTPCycle.download(big, session: session) { _, file in /* whole */ }   // only the last 200,000
                    """
            ) {
                var configuration = HTTPSession.Configuration()
                configuration.cache = HTTPCache()
                configuration.retryPolicy = .never
                let session = HTTPSession(configuration: configuration)
                let big = url("/download/1000000?drop=400000")
                let sizes = Mutex<[Int]>([])
                for _ in 1...3 {
                    _ = try? await HTTPCycle.download(big, session: session) { _, file in
                        // The Sandbox's byte i is i mod 251: a byte out of place shows as a smaller count.
                        let bytes = try Data(contentsOf: file)
                        let intact = bytes.indices.prefix { bytes[$0] == UInt8($0 % 251) }.count
                        sizes.withLock { $0.append(intact) }
                    }
                }
                let saved = (configuration.cache as? HTTPCache)?.statistics.bytesSaved ?? 0
                try await session.shutdown()
                return Outcome(
                    "files (bytes in place): \(sizes.withLock { $0 }); bytes not sent again: \(saved)",
                    expected: "files (bytes in place): [1000000]; bytes not sent again: 1200000")
            },
        ]
    }
}
