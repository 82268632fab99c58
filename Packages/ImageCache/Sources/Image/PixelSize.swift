/// An image's width and height in pixels, as its header states them (before any EXIF
/// orientation is applied).
public struct PixelSize: Sendable, Hashable, CustomStringConvertible {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int

    /// A size of `width` by `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `width×height`.
    public var description: String { "\(width)×\(height)" }

    /// The size a header gives, refused when a side is zero (or negative).
    ///
    /// - Throws: ``ImageError/Code/invalidHeader``.
    static func stated(width: Int, height: Int, by format: ImageFormat) throws(ImageError) -> PixelSize {
        guard width > 0, height > 0 else { throw ImageError.invalidHeader(format, "a size of \(width)×\(height)") }
        return PixelSize(width: width, height: height)
    }
}
