import Foundation
import JewzCache
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// A clock tests move on instead of sleeping: freshness is measured by it.
///
/// It starts an hour behind the Sandbox's `Date`, so that moving it on never makes a new
/// response look older than it is (a response dated after its arrival has no apparent age;
/// one dated before has, as RFC 9111 §4.2.3 counts clock skew).
final class TestClock: Sendable {
    /// Stands still between `advance` calls: a test the loaded suite keeps waiting for seconds
    /// must not see its entries age by themselves.
    private let start = Date()
    private let offset = Mutex<TimeInterval>(-3600)

    var now: @Sendable () -> Date {
        { [self] in start.addingTimeInterval(offset.withLock { $0 }) }
    }

    func advance(by seconds: TimeInterval) {
        offset.withLock { $0 += seconds }
    }
}

/// Runs `body` with a Sandbox and a session whose cache is `cache`.
func withCachedSandbox(
    _ cache: HTTPCache, followsRedirects: Bool = true, _ body: (Sandbox, HTTPSession) async throws -> Void
) async throws {
    var configuration = HTTPSession.Configuration()
    configuration.cache = cache
    configuration.followsRedirects = followsRedirects
    try await withSandbox(configuration: configuration, body)
}

/// Runs `body` with a scripted server answering with the status line and fields `answer`
/// gives (and a one-byte body, the request's index), and a session whose cache has
/// `configuration` and runs on `clock`, and whose transport has `transport`'s settings; the
/// server's count tells what reached it.
func withScriptedCache(
    clock: TestClock = TestClock(), store: any CacheStore = MemoryCacheStore(), configuration cacheConfiguration: HTTPCache.Configuration = .init(),
    transport: AsyncHTTPClientTransport.Configuration = .init(), _ answer: @escaping @Sendable (ScriptedServer.Request) -> [String], _ body: (ScriptedServer, HTTPSession) async throws -> Void
) async throws {
    var configuration = HTTPSession.Configuration()
    configuration.cache = HTTPCache(store: store, configuration: cacheConfiguration, now: clock.now)
    configuration.retryPolicy = .never
    configuration.transport = transport
    try await withScriptedServer(configuration: configuration, { request in
        let lines = answer(request)
        let status = lines.first ?? "HTTP/1.1 200 OK"
        return [.send(responseHead(status, Array(lines.dropFirst()) + ["Date: \(HTTPDate.string(from: Date()))", "Content-Length: 1"]) + "\(request.index)")]
    }, body)
}

/// One request through a cycle, with headers and caching options; a failing status throws.
@discardableResult
func fetch(
    _ url: String, session: HTTPSession, method: HTTPMethod = .get, headers: HTTPHeaderFields = [:],
    caching: HTTPRequestOptions.Caching = .init()
) async throws -> HTTPResponse {
    guard let url = URL(string: url) else { throw HTTPError.invalidURL(url) }
    let cycle = HTTPCycle(requestURL: url, requestMethod: method, session: session)
    cycle.request.headers = headers
    cycle.options.caching = caching
    return try await cycle.start()
}

extension HTTPResponse {
    var bodyText: String { String(decoding: data, as: UTF8.self) }
}

/// Downloads `url` and returns the response and the bytes of the file the handler got.
func download(_ url: String, session: HTTPSession) async throws -> (HTTPResponse, Data) {
    let contents = Mutex(Data())
    let response = try await HTTPCycle.download(url, session: session) { _, location in
        let data = try Data(contentsOf: location)
        contents.withLock { $0 = data }
    }
    return (response, contents.withLock { $0 })
}
