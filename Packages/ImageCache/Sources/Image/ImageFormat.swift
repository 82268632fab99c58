/// An image file format, as its magic number tells it. A struct rather than an enum, so that a
/// new format does not break a caller's `switch`.
public struct ImageFormat: Sendable, Hashable, CustomStringConvertible {
    /// The short name, as `jewz image --json` prints it: `png`, `jpeg`, `gif`…
    public let name: String
    /// The media type a server should send it with.
    public let mediaType: String

    /// The format's name.
    public var description: String { name }

    /// PNG.
    public static let png = ImageFormat(name: "png", mediaType: "image/png")
    /// JPEG (JFIF, EXIF).
    public static let jpeg = ImageFormat(name: "jpeg", mediaType: "image/jpeg")
    /// GIF 87a and 89a.
    public static let gif = ImageFormat(name: "gif", mediaType: "image/gif")
    /// WebP (lossy, lossless, extended).
    public static let webp = ImageFormat(name: "webp", mediaType: "image/webp")
    /// Windows bitmap.
    public static let bmp = ImageFormat(name: "bmp", mediaType: "image/bmp")
    /// TIFF and BigTIFF.
    public static let tiff = ImageFormat(name: "tiff", mediaType: "image/tiff")
    /// HEIF with HEVC (`heic`, `heix`, `mif1`…).
    public static let heic = ImageFormat(name: "heic", mediaType: "image/heic")
    /// AVIF.
    public static let avif = ImageFormat(name: "avif", mediaType: "image/avif")
    /// SVG.
    public static let svg = ImageFormat(name: "svg", mediaType: "image/svg+xml")
}
