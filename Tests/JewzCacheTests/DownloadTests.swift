import Foundation
import JewzCache
import JewzHTTPCore
import JewzLocking
import JewzTestSupport
import Testing

/// Downloads through the cache: bodies go from the download's file to the store and back.
@Suite struct DownloadTests {
    @Test func aDownloadIsStoredOnDiskAndAnsweredFromIt() async throws {
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cache = try HTTPCache(directory: scratch)
        try await withCachedSandbox(cache) { sandbox, session in
            let url = sandbox.url("/cached/file?cc=max-age=600&size=3000000")
            let (first, firstBody) = try await download(url, session: session)
            #expect(first.source == .network)
            #expect(firstBody == Data(repeating: UInt8(ascii: "c"), count: 3_000_000))
            let (second, secondBody) = try await download(url, session: session)
            #expect(second.source == .cache)
            #expect(second.data.isEmpty)
            #expect(secondBody == firstBody)
            #expect(sandbox.router.cacheHits(forKey: "file") == 1)
            // The same entry answers a request that keeps its body in memory.
            let inMemory = try await fetch(url, session: session)
            #expect(inMemory.source == .cache)
            #expect(inMemory.data == firstBody)
            #expect(cache.statistics.bytesSaved == 6_000_000)
        }
    }

    @Test func aRevalidatedDownloadGetsTheStoredBody() async throws {
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cache = try HTTPCache(directory: scratch)
        try await withCachedSandbox(cache) { sandbox, session in
            let url = sandbox.url("/cached/checked?cc=no-cache&etag=v1&size=200000")
            _ = try await download(url, session: session)
            let (again, body) = try await download(url, session: session)
            #expect(again.source == .revalidated)
            #expect(body.count == 200_000)
            #expect(sandbox.router.cacheHits(forKey: "checked") == 2)
        }
    }

    @Test func aMemoryStoreKeepsSmallDownloadsOnly() async throws {
        try await withCachedSandbox(HTTPCache(store: MemoryCacheStore())) { sandbox, session in
            let small = sandbox.url("/cached/small?cc=max-age=600&size=1000")
            _ = try await download(small, session: session)
            let (hit, body) = try await download(small, session: session)
            #expect(hit.source == .cache)
            #expect(body.count == 1_000)
            let large = sandbox.url("/cached/large?cc=max-age=600&size=9000000")
            _ = try await download(large, session: session)
            let (miss, _) = try await download(large, session: session)
            #expect(miss.source == .network)
        }
    }
}
