import Foundation
import Jewzruxin
import JewzSandbox

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
            }
        ]
    }
}
