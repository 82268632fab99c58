import Foundation
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
                    var request = HTTPRequest(url: tourURL)
                    request.caching.policy = .revalidate  // ask the server: 304 keeps the stored body
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
                revalidate.request.caching.policy = .revalidate
                let confirmed = try await revalidate.start()
                try await session.shutdown()
                let sources = [first.response?.source, again.response?.source, confirmed.source].map { "\($0.map { "\($0)" } ?? "none")" }
                return Outcome(
                    "\(sources.joined(separator: ", ")); the server saw \(sandbox.router.cacheHits(forKey: "tour"))",
                    expected: "network, cache, revalidated; the server saw 2")
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
                    "\((during.response?.source).map { "\($0)" } ?? "none"): \(during.response?.text ?? "")",
                    expected: "stale: outage #1")
            },
        ]
    }
}
