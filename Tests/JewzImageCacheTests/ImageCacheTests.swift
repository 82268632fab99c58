import Foundation
import JewzHTTPCore
import JewzImageCache
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

/// The image cache against the Sandbox: memory, disk, revalidation, keys, errors.
@Suite struct ImageCacheTests {
    @Test func anImageComesFromTheNetworkThenFromMemory() async throws {
        try await withImages { sandbox, images in
            let url = sandbox.image("baseline.jpg", key: "memory")
            let first = try await images.response(for: url)
            #expect(first.source == .network)
            #expect(first.image.format == .jpeg)
            #expect(first.image.pixelSize == PixelSize(width: 64, height: 48))
            let second = try await images.response(for: url)
            #expect(second.source == .memory)
            #expect(second.image == first.image)
            #expect(sandbox.router.cacheHits(forKey: "memory") == 1)
        }
    }

    @Test func aNewCacheOnTheSameDirectoryFindsTheImageOnDisk() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withImages(onDisk(directory)) { sandbox, images in
            let url = sandbox.image("plain.png", key: "disk")
            _ = try await images.image(for: url)
            let later = try ImageCache(configuration: onDisk(directory))
            #expect(await later.cachedImage(for: url)?.pixelSize == PixelSize(width: 37, height: 23))
            later.removeImage(for: url)
            let again = try ImageCache(configuration: onDisk(directory))
            let response = try await again.response(for: url)
            #expect(response.source == .network)
            let fresh = try ImageCache(configuration: onDisk(directory))
            #expect(try await fresh.response(for: url).source == .disk)
            #expect(sandbox.router.cacheHits(forKey: "disk") == 2)
            for cache in [later, again, fresh] { try await cache.session.shutdown() }
        }
    }

    @Test func noStoreIsNeverKeptOnDiskAndAStaleImageIsRevalidated() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withImages(onDisk(directory)) { sandbox, images in
            let unstored = sandbox.image("plain.gif", key: "unstored", "cc=no-store")
            _ = try await images.image(for: unstored)
            let checked = sandbox.image("lossy.webp", key: "checked", "cc=no-cache&etag=v1")
            let original = try await images.image(for: checked)
            let later = try ImageCache(configuration: onDisk(directory))
            #expect(await later.cachedImage(for: unstored) == nil)
            #expect(try await later.response(for: unstored).source == .network)
            let revalidated = try await later.response(for: checked)
            #expect(revalidated.source == .revalidated)
            #expect(revalidated.image == original)
            #expect(sandbox.router.cacheHits(forKey: "checked") == 2)
            try await later.session.shutdown()
        }
    }

    @Test func memoryEvictsTheLeastRecentlyUsedImage() async throws {
        var configuration = ImageCache.Configuration()
        configuration.memoryCountLimit = 2
        try await withImages(configuration) { sandbox, images in
            let (a, b, c) = (sandbox.image("plain.png", key: "a"), sandbox.image("plain.gif", key: "b"), sandbox.image("plain.bmp", key: "c"))
            _ = try await images.image(for: a)
            _ = try await images.image(for: b)
            _ = try await images.image(for: a)
            _ = try await images.image(for: c)
            #expect(await images.cachedImage(for: b) == nil)
            #expect(await images.cachedImage(for: a) != nil)
            #expect(await images.cachedImage(for: c) != nil)
            #expect(images.memoryUsage.count == 2)
        }
    }

    @Test func aKeyFunctionMakesAFreshSignatureAHit() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = onDisk(directory)
        configuration.key = { url in
            guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
            let kept = components.queryItems?.filter { $0.name != "token" }
            components.queryItems = kept
            return components.string ?? url.absoluteString
        }
        try await withImages(configuration) { sandbox, images in
            _ = try await images.image(for: sandbox.image("plain.tiff", key: "signed", "cc=max-age=600&token=first"))
            let resigned = sandbox.image("plain.tiff", key: "signed", "cc=max-age=600&token=second")
            #expect(try await images.response(for: resigned).source == .memory)
            let later = try ImageCache(configuration: configuration)
            #expect(try await later.response(for: resigned).source == .disk)
            #expect(sandbox.router.cacheHits(forKey: "signed") == 1)
            try await later.session.shutdown()
        }
    }

    @Test func aBodyThatIsNoImageIsAnErrorSayingWhatItIs() async throws {
        try await withImages { sandbox, images in
            let error = await #expect(throws: ImageError.self) {
                try await images.image(for: URL(string: sandbox.url("/cached/text"))!)
            }
            #expect(error?.code == .notAnImage)
            #expect(error?.lookalike?.hasPrefix("text") == true)
            #expect(error?.description.contains("not an image") == true)
            let missing = await #expect(throws: HTTPError.self) {
                try await images.image(for: URL(string: sandbox.url("/status/404"))!)
            }
            #expect(missing?.statusCode == 404)
        }
    }

    @Test func aFakeAnswersWithoutTheNetworkAndADecoderPlugsIn() async throws {
        try await withImages { sandbox, images in
            let url = sandbox.image("plain.png", key: "faked")
            images.setFake(.blank(width: 2, height: 2, red: 1, green: 2, blue: 3), for: url)
            let response = try await images.response(for: url)
            #expect(response.source == .memory)
            #expect(response.image.format == .bmp)
            #expect(try await images.image(for: url, decoder: FirstPixelDecoder()) == [1, 2, 3])
            #expect(sandbox.router.cacheHits(forKey: "faked") == 0)
            let completed = try await withCheckedThrowingContinuation { continuation in
                images.image(for: sandbox.image("plain.gif", key: "completion")) { continuation.resume(with: $0) }
            }
            #expect(completed.image.format == .gif)
        }
    }
}

/// A decoder of uncompressed 24-bit BMPs' first stored pixel, as red, green, blue: enough to
/// show that a decoder plugs in.
struct FirstPixelDecoder: ImageDecoder {
    struct NotABMP: Error {}

    func decode(_ image: Image) throws -> [UInt8] {
        guard image.format == .bmp, image.data.count >= 57 else { throw NotABMP() }
        let start = image.data.startIndex + 54
        return [image.data[start + 2], image.data[start + 1], image.data[start]]
    }
}
