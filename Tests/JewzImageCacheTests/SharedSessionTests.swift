import Foundation
import JewzHTTPCore
import JewzImageCache
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

/// An image cache over an application's session, and decoded outputs kept so that a hit runs
/// no decoder.
@Suite struct SharedSessionTests {
    final class Runs: Sendable {
        let count = Atomic(0)
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// A decoder that counts its runs and names its output after its setting.
    struct CountingDecoder: ImageDecoder {
        let scale: Int
        let runs: Runs

        func decode(_ image: Image) async throws -> String {
            runs.count.add(1, ordering: .relaxed)
            return "\(image.format) ×\(scale)"
        }

        var identifier: String { "counting-\(scale)" }
    }

    @Test func anImageCacheWithASessionSendsThroughItsMiddlewareAndTransport() async throws {
        let sandbox = try await Sandbox.start()
        let seen = Mutex<[String]>([])
        let app = HTTPSession(configuration: .init {
            $0.logger = quietLogger
            $0.networkMiddleware = [HTTPClosureMiddleware("app") { request, next in
                seen.withLock { $0.append(request.url.path()) }
                return try await next(request)
            }]
        })
        let images = try ImageCache(session: app)
        let image = try await images.image(for: sandbox.image("plain.png", key: "shared"))
        #expect(image.format == .png)
        #expect(seen.withLock { $0 } == ["/cached/shared"])
        let sharesTransport = (images.session.transport as AnyObject) === (app.transport as AnyObject)
        #expect(sharesTransport)
        // The application's session still sends, and is the one to shut down.
        #expect(try await app.send(HTTPRequest(url: try #require(URL(string: sandbox.url("/hello/"))))).statusCode == 200)
        try await app.shutdown()
        try await sandbox.shutdown()
    }

    @Test func aDecodedImageIsKeptPerDecoderAndAHitRunsNoDecoder() async throws {
        try await withImages { sandbox, images in
            let url = sandbox.image("baseline.jpg", key: "decoded")
            let runs = Runs()
            let small = CountingDecoder(scale: 1, runs: runs)
            #expect(try await images.image(for: url, decoder: small) == "jpeg ×1")
            #expect(try await images.image(for: url, decoder: small) == "jpeg ×1")
            #expect(runs.value == 1)
            // Another decoder's output is its own; the image itself comes from memory.
            #expect(try await images.image(for: url, decoder: CountingDecoder(scale: 2, runs: runs)) == "jpeg ×2")
            #expect(runs.value == 2)
            #expect(images.decodedUsage == (cost: 2 * 64 * 48 * 4, count: 2))
            #expect(sandbox.router.cacheHits(forKey: "decoded") == 1)

            images.removeImage(for: url)
            #expect(images.decodedUsage.count == 0)
            _ = try await images.image(for: url, decoder: small)
            #expect(runs.value == 3)
        }
    }

    @Test func theMemoryOnlyLookupAnswersFromMemoryAlone() async throws {
        try await withImages { sandbox, images in
            let url = sandbox.image("plain.png", key: "memory-only")
            #expect(images.memoryCachedImage(for: url) == nil)
            _ = try await images.image(for: url)
            #expect(images.memoryCachedImage(for: url)?.format == .png)
        }
    }
}
