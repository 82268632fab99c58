import Foundation
import JewzCache
import JewzHTTPCore
import JewzLocking
import JewzTestSupport
import Testing

/// Responses read with `startStreaming()` through the cache: the body goes into the store as
/// it is read, and comes back from it as a stream.
@Suite struct StreamingTests {
    /// Streams `url` whole and returns the head and the bytes read.
    private func stream(_ url: String, session: HTTPSession) async throws -> (HTTPResponse.Head, Data) {
        let cycle = HTTPCycle(requestURL: try #require(URL(string: url)), requestMethod: .get, session: session)
        let opened = try await cycle.startStreaming()
        let (response, body) = (opened.head, opened.body)
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
                let opened = try await cycle.startStreaming()
                let (response, body) = (opened.head, opened.body)
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
            let opened = try await cycle.startStreaming()
            let (response, body) = (opened.head, opened.body)
            #expect(response.statusCode == 304)
            #expect(try await body.collect(upTo: 1 << 20).isEmpty)
        }
    }

    /// A body a disk store keeps in a file goes up the path as a stream, whatever the run wants:
    /// a middleware above the cache reads it as it passes, and a caller that keeps bodies in
    /// memory gets it whole in `data`. One of at most 1 MiB comes up in `data` already, read with
    /// its entry.
    @Test func aLargeStoredBodyGoesUpAsAStreamAndLandsInMemory() async throws {
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let seen = Mutex<[(streamed: Bool, counted: Int)]>([])
        let counter = HTTPClosureMiddleware("counter") { request, next in
            var response = try await next(request)
            guard response.body.data == nil else {
                seen.withLock { $0.append((false, response.data.count)) }
                return response
            }
            let counted = Mutex(0)
            response.body = response.body
                .map { chunk in
                    counted.withLock { $0 += chunk.count }
                    return chunk
                }
                .whenFinished { _ in seen.withLock { $0.append((true, counted.withLock { $0 })) } }
            return response
        }
        var configuration = HTTPSession.Configuration()
        configuration.cache = try HTTPCache(directory: scratch)
        configuration.middleware = [counter]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let large = sandbox.url("/cached/large?cc=max-age=600&size=2000000")
            _ = try await fetch(large, session: session)
            let hit = try await fetch(large, session: session)
            #expect(hit.source == .cache)
            #expect(hit.data == Data(repeating: UInt8(ascii: "c"), count: 2_000_000))
            let small = sandbox.url("/cached/small?cc=max-age=600&size=1000")
            _ = try await fetch(small, session: session)
            let smallHit = try await fetch(small, session: session)
            #expect(smallHit.source == .cache)
            #expect(smallHit.data.count == 1_000)
        }
        let views = seen.withLock { $0 }
        #expect(views.map(\.streamed) == [false, true, false, false], "the network's bodies and the small hit in memory, the large hit a stream")
        #expect(views.map(\.counted) == [2_000_000, 2_000_000, 1_000, 1_000])
    }
}
