import Foundation
import Jewzruxin
import JewzSandbox
import Synchronization

/// The tour's step about images: sizes read from headers, one download for many callers, and
/// a disk cache a new process finds.
extension TourStep {
    static func imageSteps(_ sandbox: Sandbox) -> [TourStep] {
        let logoPath = "/cached/logo?image=baseline.jpg&cc=max-age=60&delay=100"
        return [
            TourStep(
                title: "Images: 20 callers share one download, the size comes from the header, the disk keeps it",
                code: """
                    var configuration = ImageCache.Configuration()
                    configuration.directory = imageDirectory
                    let images = try ImageCache(configuration: configuration)
                    // 20 at once: one download, everyone gets the same image
                    let image = try await images.image(for: url("/cached/logo?image=baseline.jpg&cc=max-age=60&delay=100"))
                    let later = try ImageCache(configuration: configuration)   // as a new process would
                    let response = try await later.response(for: sameURL)      // .disk, no network
                    """
            ) {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-tour-images-\(getpid())")
                defer { try? FileManager.default.removeItem(at: directory) }
                var configuration = ImageCache.Configuration()
                configuration.directory = directory
                let images = try ImageCache(configuration: configuration)
                guard let logo = URL(string: sandbox.url(logoPath)) else { throw HTTPError.invalidURL(logoPath) }
                let sizes = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<20 { group.addTask { try await images.image(for: logo).pixelSize.map { "\($0)" } ?? "?" } }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
                let later = try ImageCache(configuration: configuration)
                let response = try await later.response(for: logo)
                try await images.session.shutdown()
                try await later.session.shutdown()
                return Outcome(
                    "\(response.image.format) \(sizes.sorted().joined(separator: ", ")); the server saw \(sandbox.router.cacheHits(forKey: "logo")); then from the \(response.source)",
                    expected: "jpeg 64×48; the server saw 1; then from the disk")
            },
            TourStep(
                title: "An image cache over the app's session (its middleware and pool); a decoded image is kept, so a hit decodes nothing",
                code: """
                    let images = try ImageCache(session: app)            // app: the HTTPSession the program already has
                    let first = try await images.image(for: logoURL, decoder: Thumbnail(side: 32))   // downloads, decodes
                    let again = try await images.image(for: logoURL, decoder: Thumbnail(side: 32))   // memory, no decoding
                    """
            ) {
                let decodes = RunCount()
                let seen = Atomic(0)
                let app = HTTPSession(configuration: .init {
                    $0.networkMiddleware = [HTTPClosureMiddleware("app") { request, next in
                        seen.add(1, ordering: .relaxed)
                        return try await next(request)
                    }]
                })
                let images = try ImageCache(session: app)
                guard let logo = URL(string: sandbox.url("/cached/thumb?image=baseline.jpg&cc=max-age=60")) else { throw HTTPError.invalidURL("thumb") }
                let thumbnail = Thumbnail(side: 32, decodes: decodes)
                let first = try await images.image(for: logo, decoder: thumbnail)
                let again = try await images.image(for: logo, decoder: thumbnail)
                try await app.shutdown()
                return Outcome(
                    "\(first) and \(again); through the app's middleware: \(seen.load(ordering: .relaxed)), decoded \(decodes.count.load(ordering: .relaxed))",
                    expected: "32×24 and 32×24; through the app's middleware: 1, decoded 1")
            },
        ]
    }
}

/// How many times something ran.
private final class RunCount: Sendable {
    let count = Atomic(0)
}

/// The tour's decoder: the size a thumbnail of the image would have, counting its runs.
private struct Thumbnail: ImageDecoder {
    let side: Int
    let decodes: RunCount

    func decode(_ image: Image) async throws -> String {
        decodes.count.add(1, ordering: .relaxed)
        guard let size = image.pixelSize else { return "?" }
        let scale = Double(side) / Double(max(size.width, size.height))
        return "\(Int(Double(size.width) * scale))×\(Int(Double(size.height) * scale))"
    }

    var identifier: String { "thumbnail-\(side)" }
}
