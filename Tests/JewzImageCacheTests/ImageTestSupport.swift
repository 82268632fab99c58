import Foundation
import JewzHTTPCore
import JewzImageCache
import JewzSandbox
import JewzTestSupport

/// Runs `body` with a Sandbox and an image cache made with `configuration`, then stops both.
func withImages(
    _ configuration: ImageCache.Configuration = .init(), _ body: (Sandbox, ImageCache) async throws -> Void
) async throws {
    let sandbox = try await Sandbox.start()
    let images = try ImageCache(configuration: configuration)
    do {
        try await body(sandbox, images)
    } catch {
        try? await images.session.shutdown()
        try? await sandbox.shutdown()
        throw error
    }
    try await images.session.shutdown()
    try await sandbox.shutdown()
}

/// An image cache on disk in `directory`.
func onDisk(_ directory: URL) -> ImageCache.Configuration {
    var configuration = ImageCache.Configuration()
    configuration.directory = directory
    return configuration
}

extension Sandbox {
    /// The URL of a Sandbox image under `key`, with `/cached/`'s parameters.
    func image(_ name: String, key: String, _ parameters: String = "cc=max-age=600") -> URL {
        URL(string: url("/cached/\(key)?image=\(name)&\(parameters)"))!
    }
}
