import Foundation

/// The small images the Sandbox serves (`/cached/KEY?image=NAME`), made with real encoders
/// (Pillow: PNG, baseline and progressive JPEG with EXIF, GIF, lossy, lossless and extended
/// WebP, BMP, TIFF, AVIF) and one hand-written SVG; each has its own size, so that a reader of
/// the header can be checked against it.
public enum SandboxImages {
    /// Each image's file name, its format's short name and its size in pixels.
    public static let catalog: [(name: String, format: String, width: Int, height: Int)] = [
        ("plain.png", "png", 37, 23),
        ("baseline.jpg", "jpeg", 64, 48),
        ("progressive-exif.jpg", "jpeg", 50, 30),
        ("plain.gif", "gif", 19, 11),
        ("lossy.webp", "webp", 40, 20),
        ("lossless.webp", "webp", 21, 13),
        ("extended.webp", "webp", 33, 17),
        ("plain.bmp", "bmp", 15, 9),
        ("plain.tiff", "tiff", 28, 14),
        ("plain.avif", "avif", 24, 12),
        ("drawing.svg", "svg", 120, 80),
    ]

    /// The bytes of the image called `name`, or `nil` when there is none.
    public static func data(named name: String) -> Data? {
        guard catalog.contains(where: { $0.name == name }),
            let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Images")
        else { return nil }
        return try? Data(contentsOf: url)
    }

    /// The media type a file name's extension stands for.
    static func mediaType(of name: String) -> String {
        switch name.split(separator: ".").last ?? "" {
        case "png": "image/png"
        case "jpg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "bmp": "image/bmp"
        case "tiff": "image/tiff"
        case "avif": "image/avif"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }
}
