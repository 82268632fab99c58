import Foundation
import Jewzruxin

/// `IMAGES=1`: `ImageCache.image(for:)` answered by memory, by the disk cache (memory off, so
/// each call goes through the shared download, the cycle and the disk store), and a burst of
/// 100 callers of an image forgotten just before (no disk: one download, shared by those who
/// ask while it runs, and memory hits for those who come after), each against a network GET
/// of the same image (`HTTPCycle.get` on a session without a cache). The image is the
/// Sandbox's PNG, served by nginx with `Cache-Control: max-age=3600`.
func imageCases(image url: String) async throws -> (cases: [Case], caches: [ImageCache], sessions: [HTTPSession], directory: URL) {
    guard let imageURL = URL(string: url) else { throw BenchFailure(url) }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-bench-images-\(getpid())")
    var inMemory = ImageCache.Configuration()
    inMemory.memoryCostLimit = 16 << 20
    var onDisk = ImageCache.Configuration()
    onDisk.memoryCostLimit = 0
    onDisk.directory = directory
    let nowhere = ImageCache.Configuration()
    let memory = try ImageCache(configuration: inMemory)
    let disk = try ImageCache(configuration: onDisk)
    let burst = try ImageCache(configuration: nowhere)
    for cache in [memory, disk] { _ = try await cache.image(for: imageURL) }
    let network = HTTPSession()
    try await HTTPCycle.get(url, session: network)
    let networkGET = Contender(name: "HTTPCycle.get, network") { try await HTTPCycle.get(url, session: network) }
    func expecting(_ source: ImageSource, from cache: ImageCache) -> @Sendable () async throws -> Void {
        {
            let response = try await cache.response(for: imageURL)
            guard response.source == source else { throw BenchFailure("\(url) came from \(response.source)") }
        }
    }
    let cases: [Case] = [
        ("image memory hit vs network c=1", 1, 5_000 * blockScale, Contender(name: "ImageCache, memory", request: expecting(.memory, from: memory)), networkGET),
        ("image disk hit vs network c=1", 1, 2_000 * blockScale, Contender(name: "ImageCache, disk", request: expecting(.disk, from: disk)), networkGET),
        ("burst of 100 vs one network GET c=1", 1, 200 * blockScale, Contender(name: "ImageCache, 100 callers, one download") {
            burst.removeImage(for: imageURL)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<100 { group.addTask { _ = try await burst.image(for: imageURL) } }
                try await group.waitForAll()
            }
        }, networkGET),
    ]
    return (cases, [memory, disk, burst], [network], directory)
}
