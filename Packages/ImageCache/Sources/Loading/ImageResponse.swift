import Foundation

/// An image with where it came from.
public struct ImageResponse: Sendable, Hashable {
    /// The image.
    public let image: Image
    /// Where it was found: memory, disk, the network, or the disk after a `304`.
    public let source: ImageSource
    /// The URL it was asked for.
    public let url: URL
}

/// Where an ``ImageCache`` found an image. A struct rather than an enum, so that a new source
/// does not break a caller's `switch`.
public struct ImageSource: Sendable, Hashable, CustomStringConvertible {
    /// `memory`, `disk`, `network` or `revalidated`, as `jewz image --json` prints it.
    public let name: String

    /// The source's name.
    public var description: String { name }

    /// The memory cache (or a fake set with ``ImageCache/setFake(_:for:)``).
    public static let memory = ImageSource(name: "memory")
    /// The disk cache, without the network: fresh, or stale where the server allows it.
    public static let disk = ImageSource(name: "disk")
    /// A download.
    public static let network = ImageSource(name: "network")
    /// The disk cache, after the server confirmed it with `304 Not Modified`.
    public static let revalidated = ImageSource(name: "revalidated")
}
