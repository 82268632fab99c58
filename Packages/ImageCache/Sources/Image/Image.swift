import Foundation

/// An image as bytes, with its format and pixel size read from its header — nothing decoded.
/// Pixels are a decoder's business (``ImageDecoder``), so the value exists on Linux, where
/// there is no `UIImage`, and costs one header read.
///
/// ```swift
/// let bytes = Data()
/// let image = try Image(data: bytes)
/// if let size = image.pixelSize { print(image.format, size) }   // png 640×480
/// ```
public struct Image: Sendable, Hashable {
    /// The file's bytes, as they came.
    public let data: Data
    /// The format its magic number tells.
    public let format: ImageFormat
    /// The width and height its header states; `nil` only for an SVG that states neither a
    /// size nor a `viewBox`.
    public let pixelSize: PixelSize?

    /// Reads the format and the pixel size of `data` from its header.
    ///
    /// - Throws: ``ImageError``: ``ImageError/Code/notAnImage`` (naming what the bytes look
    ///   like: an HTML page, JSON…), ``ImageError/Code/truncated`` for a header cut short,
    ///   ``ImageError/Code/invalidHeader`` for one that lies.
    public init(data: Data) throws(ImageError) {
        // withUnsafeBytes rethrows untyped errors: the typed one goes through a Result.
        let header = data.withUnsafeBytes { bytes in
            Result { () throws(ImageError) in try Self.header(of: bytes) }
        }
        let (format, size) = try header.get()
        self.data = data
        self.format = format
        pixelSize = size
    }

    /// The format and the size of the image in `bytes`.
    static func header(of bytes: UnsafeRawBufferPointer) throws(ImageError) -> (ImageFormat, PixelSize?) {
        let probe = ByteReader(bytes: bytes, format: .png)
        guard let format = FormatSniffer.format(of: probe) else {
            throw ImageError.notAnImage(lookingLike: FormatSniffer.lookalike(of: bytes))
        }
        let reader = ByteReader(bytes: bytes, format: format)
        switch format {
        case .png: return (format, try PNGHeader.pixelSize(reader))
        case .jpeg: return (format, try JPEGHeader.pixelSize(reader))
        case .gif: return (format, try GIFHeader.pixelSize(reader))
        case .webp: return (format, try WebPHeader.pixelSize(reader))
        case .bmp: return (format, try BMPHeader.pixelSize(reader))
        case .tiff: return (format, try TIFFHeader.pixelSize(reader))
        case .heic, .avif: return (format, try HEIFHeader.pixelSize(reader, format: format))
        default: return (format, SVGHeader.rootTag(bytes).flatMap(SVGHeader.pixelSize(rootTag:)))
        }
    }

    /// A blank image `width` by `height` pixels (at least 1 each): an uncompressed 24-bit BMP
    /// of one colour, for previews and tests (``ImageCache/setFake(_:for:)``).
    public static func blank(width: Int, height: Int, red: UInt8 = 0xC8, green: UInt8 = 0x3C, blue: UInt8 = 0x1E) -> Image {
        let size = PixelSize(width: max(1, width), height: max(1, height))
        let rowSize = (size.width * 3 + 3) / 4 * 4
        var data = Data("BM".utf8)
        func append(_ value: Int, _ width: Int) {
            for index in 0..<width { data.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
        }
        append(54 + rowSize * size.height, 4)
        append(0, 4)
        append(54, 4)
        append(40, 4)
        append(size.width, 4)
        append(size.height, 4)
        append(1, 2)
        append(24, 2)
        append(0, 4)
        append(rowSize * size.height, 4)
        append(2835, 4)
        append(2835, 4)
        append(0, 8)
        var row = Data()
        for _ in 0..<size.width { row.append(contentsOf: [blue, green, red]) }
        row.append(contentsOf: [UInt8](repeating: 0, count: rowSize - size.width * 3))
        for _ in 0..<size.height { data.append(row) }
        return Image(data: data, format: .bmp, pixelSize: size)
    }

    private init(data: Data, format: ImageFormat, pixelSize: PixelSize?) {
        self.data = data
        self.format = format
        self.pixelSize = pixelSize
    }
}
