import ArgumentParser
import Foundation
import Jewzruxin

/// `jewz image`: downloads an image through JewzImageCache and says what it is, read from its
/// header: format, size in bytes and pixels, and where it came from.
struct ImageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "image",
        abstract: "Download an image through the image cache and describe it.",
        discussion: """
            jewz image https://example.com/logo.png --cache ~/.cache/jewz-images
                png 640×480, 12345 bytes, from the network (a second run: from disk)
            --json prints {"format", "bytes", "width", "height", "source"}.
            Exit status 3 when the body is not an image; the message says what it is.
            """)

    @Argument(help: "The image's URL (http:// is added when no scheme is given).")
    var url: String

    @Option(help: "Keep images in this directory (RFC 9111 rules: fresh ones answer without the network, stale ones are revalidated).")
    var cache: String?

    @Flag(help: "Print one JSON object: format, bytes, width, height, source (memory, disk, network or revalidated).")
    var json = false

    func run() async throws {
        let text = RequestCommand.normalizedURL(url)
        guard let url = URL(string: text), url.host != nil, ["http", "https"].contains(url.scheme?.lowercased()) else {
            throw ValidationError("'\(text)' is not an http or https URL.")
        }
        var configuration = ImageCache.Configuration()
        configuration.directory = cache.map { URL(fileURLWithPath: $0) }
        let images: ImageCache
        do {
            images = try ImageCache(configuration: configuration)
        } catch let error as CacheError {
            throw ValidationError(error.description)
        }
        let outcome: Result<ImageResponse, any Error>
        do { outcome = .success(try await images.response(for: url)) } catch { outcome = .failure(error) }
        try? await images.session.shutdown()
        switch outcome {
        case .success(let response):
            printLine(json ? Self.json(response).formatted() : Self.text(response))
        case .failure(let error as ImageError):
            printError(error.description)
            throw JewzExit.notAnImage.code
        case .failure(let error as HTTPError):
            throw RequestCommand.exitStatus(for: error, response: nil).code
        case .failure(let error):
            printError("\(error)")
            throw JewzExit.network.code
        }
    }

    static func text(_ response: ImageResponse) -> String {
        let image = response.image
        let size = image.pixelSize.map { "\($0.width)×\($0.height)" } ?? "(no stated size)"
        let source = response.source == .network ? "from the network" : response.source == .revalidated
            ? "from the disk cache, confirmed by the server (304)" : "from the \(response.source) cache"
        return "\(image.format) \(size), \(image.data.count) bytes, \(source)"
    }

    static func json(_ response: ImageResponse) -> JSONValue {
        let image = response.image
        return [
            "format": .string(image.format.name),
            "bytes": .number(JSONNumber(image.data.count)),
            "width": image.pixelSize.map { .number(JSONNumber($0.width)) } ?? .null,
            "height": image.pixelSize.map { .number(JSONNumber($0.height)) } ?? .null,
            "source": .string(response.source.name),
        ]
    }
}
