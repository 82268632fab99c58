import Foundation
import JewzCache
import JewzHTTPCore
import JewzTestSupport
import Testing

/// Responses read with `startStreaming()` through the cache: the body goes into the store as
/// it is read, and comes back from it as a stream.
@Suite struct StreamingTests {
    /// Streams `url` whole and returns the head and the bytes read.
    private func stream(_ url: String, session: HTTPSession) async throws -> (HTTPResponse, Data) {
        let cycle = HTTPCycle(requestURL: try #require(URL(string: url)), requestMethod: .get, session: session)
        let (response, body) = try await cycle.startStreaming()
        var data = Data()
        for try await chunk in body { data.append(chunk) }
        return (response, data)
    }

    @Test func aStreamedBodyIsStoredAsItIsReadAndStreamedBack() async throws {
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cache = try HTTPCache(directory: scratch)
        try await withCachedSandbox(cache) { sandbox, session in
            let url = sandbox.url("/cached/stream?cc=max-age=600&size=3000000")
            let (first, firstBody) = try await stream(url, session: session)
            #expect(first.source == .network)
            #expect(firstBody == Data(repeating: UInt8(ascii: "c"), count: 3_000_000))
            let (second, secondBody) = try await stream(url, session: session)
            #expect(second.source == .cache)
            #expect(second.data.isEmpty)
            #expect(secondBody == firstBody)
            #expect(sandbox.router.cacheHits(forKey: "stream") == 1)
            let inMemory = try await fetch(url, session: session)
            #expect(inMemory.source == .cache)
            #expect(inMemory.data == firstBody)
        }
    }

    @Test func aStreamLeftHalfReadStoresNothing() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try HTTPCache(directory: directory)
        try await withCachedSandbox(cache) { sandbox, session in
            let url = sandbox.url("/cached/half?cc=max-age=600&size=\(32 << 20)")
            do {
                let cycle = HTTPCycle(requestURL: try #require(URL(string: url)), requestMethod: .get, session: session)
                let (response, body) = try await cycle.startStreaming()
                #expect(response.source == .network)
                var iterator = body.makeAsyncIterator()
                let chunk = try await iterator.next()
                #expect(chunk?.isEmpty == false)
                // The body and its iterator go out of scope here, unread: the transfer stops.
            }
            let (again, body) = try await stream(url, session: session)
            #expect(again.source == .network)
            #expect(body.count == 32 << 20)
            let (third, _) = try await stream(url, session: session)
            #expect(third.source == .cache)
            #expect(sandbox.router.cacheHits(forKey: "half") == 2)
        }
    }

    @Test func aRevalidatedStreamGetsTheStoredBody() async throws {
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cache = try HTTPCache(directory: scratch)
        try await withCachedSandbox(cache) { sandbox, session in
            let url = sandbox.url("/cached/checked?cc=no-cache&etag=v1&size=200000")
            _ = try await stream(url, session: session)
            let (again, body) = try await stream(url, session: session)
            #expect(again.source == .revalidated)
            #expect(body.count == 200_000)
            #expect(sandbox.router.cacheHits(forKey: "checked") == 2)
        }
    }

    @Test func aMemoryStoreKeepsSmallStreams() async throws {
        try await withCachedSandbox(HTTPCache(store: MemoryCacheStore())) { sandbox, session in
            let url = sandbox.url("/cached/small?cc=max-age=600&size=1000")
            _ = try await stream(url, session: session)
            let (hit, body) = try await stream(url, session: session)
            #expect(hit.source == .cache)
            #expect(body.count == 1_000)
        }
    }

    @Test func aCallersOwnConditionalStreamGetsItsNotModified() async throws {
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cache = try HTTPCache(directory: scratch)
        try await withCachedSandbox(cache) { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/cached/own?cc=max-age=600&etag=v1")))
            let cycle = HTTPCycle(requestURL: url, requestMethod: .get, session: session)
            cycle.request.headers["If-None-Match"] = "\"v1\""
            let (response, body) = try await cycle.startStreaming()
            #expect(response.statusCode == 304)
            #expect(try await body.collect(upTo: 1 << 20).isEmpty)
        }
    }
}
