import Foundation
import JewzHTTPCore
import JewzImageCache
import JewzSandbox
import JewzTestSupport
import Testing

/// Concurrent requests for one image share one download; leaving, cancelling, priorities and
/// prefetching.
@Suite struct DownloadSharingTests {
    @Test func manyRequestsForOneImageMakeOneDownload() async throws {
        try await withImages { sandbox, images in
            let url = sandbox.image("extended.webp", key: "burst", "cc=max-age=600&delay=300")
            let sizes = try await withThrowingTaskGroup(of: PixelSize?.self) { group in
                for _ in 0..<50 { group.addTask { try await images.image(for: url).pixelSize } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sizes.count == 50)
            #expect(Set(sizes) == [PixelSize(width: 33, height: 17)])
            #expect(sandbox.router.cacheHits(forKey: "burst") == 1)
        }
    }

    @Test func aWaiterThatLeavesLeavesTheOthersTheirImage() async throws {
        try await withImages { sandbox, images in
            // Held long enough that a fully loaded run (every suite at once on two cores) sees
            // the download start, and cancels the waiter, well before it ends.
            let url = sandbox.image("progressive-exif.jpg", key: "shared", "cc=max-age=600&delay=8000")
            let leaving = Task { try await images.image(for: url) }
            let staying = (0..<3).map { _ in Task { try await images.image(for: url) } }
            try await waitUntil { sandbox.router.cacheHits(forKey: "shared") == 1 }
            leaving.cancel()
            await #expect(throws: CancellationError.self) { try await leaving.value }
            for task in staying {
                let image = try await task.value
                #expect(image.pixelSize == PixelSize(width: 50, height: 30))
            }
            #expect(sandbox.router.cacheHits(forKey: "shared") == 1)
        }
    }

    @Test func theLastWaiterToLeaveCancelsTheDownload() async throws {
        try await withImages { sandbox, images in
            let url = sandbox.image("plain.png", key: "abandoned", "cc=max-age=600&delay=10000")
            let waiters = (0..<2).map { _ in Task { try await images.image(for: url) } }
            try await waitUntil { sandbox.router.cacheHits(forKey: "abandoned") == 1 && images.session.runningCalls.count == 1 }
            for waiter in waiters { waiter.cancel() }
            for waiter in waiters { await #expect(throws: CancellationError.self) { try await waiter.value } }
            #expect(images.downloadsInFlight == 0)
            // The download itself stops, well before the server's ten seconds.
            try await waitUntil { images.session.runningCalls.isEmpty }
            images.cancelDownload(for: url)
        }
    }

    @Test func cancelDownloadStopsEveryWaiter() async throws {
        try await withImages { sandbox, images in
            let url = sandbox.image("plain.bmp", key: "stopped", "cc=max-age=600&delay=10000")
            let waiters = (0..<3).map { _ in Task { try await images.image(for: url) } }
            try await waitUntil { sandbox.router.cacheHits(forKey: "stopped") == 1 }
            images.cancelDownload(for: url)
            for waiter in waiters { await #expect(throws: CancellationError.self) { try await waiter.value } }
            try await waitUntil { images.session.runningCalls.isEmpty }
        }
    }

    @Test func aSharedDownloadTakesItsWaitersHighestPriority() async throws {
        var configuration = ImageCache.Configuration()
        configuration.maximumConcurrentDownloads = 1
        try await withImages(configuration) { sandbox, images in
            images.session.pause()
            let low = sandbox.image("plain.png", key: "raised")
            let normal = sandbox.image("plain.gif", key: "plain")
            let background = Task { try await images.image(for: low, priority: .low) }
            try await waitUntil { images.session.pendingCalls.count == 1 }
            let ordinary = Task { try await images.image(for: normal, priority: .normal) }
            try await waitUntil { images.session.pendingCalls.count == 2 }
            #expect(images.session.pendingCalls.first?.request.url == normal)
            let urgent = Task { try await images.image(for: low, priority: .high) }
            try await waitUntil { images.session.pendingCalls.first?.request.url == low }
            #expect(images.session.pendingCalls.count == 2)
            images.session.resume()
            for task in [background, ordinary, urgent] { _ = try await task.value }
            #expect(sandbox.router.cacheHits(forKey: "raised") == 1)
        }
    }

    @Test func prefetchingFillsTheCacheAndStopsWhenCancelled() async throws {
        try await withImages { sandbox, images in
            let urls = SandboxImages.catalog.map { sandbox.image($0.name, key: "pre-\($0.name)") }
            let prefetch = images.prefetch(urls, maximumConcurrent: 3)
            let outcome = await prefetch.outcome
            #expect(outcome.fetched == urls.count)
            for url in urls { #expect(await images.cachedImage(for: url) != nil) }
            let slow = (0..<6).map { sandbox.image("plain.png", key: "slow\($0)", "cc=max-age=600&delay=10000") }
            let stopped = images.prefetch(slow, maximumConcurrent: 2)
            try await waitUntil { images.session.runningCalls.count == 2 }
            stopped.cancel()
            let partial = await stopped.outcome
            #expect(partial.fetched == 0)
            try await waitUntil { images.session.runningCalls.isEmpty }
            #expect(slow.allSatisfy { sandbox.router.cacheHits(forKey: $0.path.split(separator: "/").last.map(String.init) ?? "") <= 1 })
        }
    }
}
