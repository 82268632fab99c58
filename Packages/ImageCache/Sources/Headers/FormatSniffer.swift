/// Tells an image's format from its first bytes (its magic number), and says what bytes that
/// are no image look like, so that the error can name it.
enum FormatSniffer {
    static func format(of reader: ByteReader) -> ImageFormat? {
        let bytes = reader.bytes
        if bytes.starts(with: PNGHeader.signature) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if reader.matches("GIF87a", at: 0) || reader.matches("GIF89a", at: 0) { return .gif }
        if reader.matches("RIFF", at: 0), reader.matches("WEBP", at: 8) { return .webp }
        if reader.matches("BM", at: 0), reader.has(26, at: 0) { return .bmp }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || bytes.starts(with: [0x49, 0x49, 0x2B, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
        {
            return .tiff
        }
        if let heif = HEIFHeader.format(reader) { return heif }
        if SVGHeader.rootTag(bytes) != nil { return .svg }
        return nil
    }

    /// What bytes that are no image look like, for the error: "an HTML page", "JSON"…
    static func lookalike(of bytes: UnsafeRawBufferPointer) -> String {
        guard !bytes.isEmpty else { return "nothing (the body is empty)" }
        let start = String(decoding: UnsafeRawBufferPointer(rebasing: bytes.prefix(256)), as: UTF8.self)
        let text = start.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.lowercased()
        if text.hasPrefix("<!doctype html") || text.hasPrefix("<html") || text.hasPrefix("<head") || text.hasPrefix("<body") {
            return "an HTML page"
        }
        if text.hasPrefix("<?xml") || text.hasPrefix("<") { return "XML" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON" }
        if bytes.starts(with: Array("%PDF".utf8)) { return "a PDF document" }
        if bytes.starts(with: [0x1F, 0x8B]) { return "gzip-compressed data" }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive" }
        if bytes.count >= 8, String(decoding: UnsafeRawBufferPointer(rebasing: bytes[4..<8]), as: UTF8.self) == "ftyp" {
            return "an ISO media file (video or audio) that is no HEIC or AVIF image"
        }
        let sample = bytes.prefix(512)
        if sample.allSatisfy({ $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || (0x20..<0x7F).contains($0) || $0 >= 0x80 }),
            String(validating: sample, as: UTF8.self) != nil
        {
            return "text (\"\(start.prefix(40).replacingOccurrences(of: "\n", with: " "))…\")"
        }
        let hex = bytes.prefix(8).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "binary data of no known image format (it starts \(hex.joined(separator: " ")))"
    }
}
