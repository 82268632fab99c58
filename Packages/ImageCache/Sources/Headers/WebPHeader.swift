/// WebP: a RIFF container whose first chunk says the kind — `VP8 ` (lossy: the key frame's
/// 14-bit sizes after its start code), `VP8L` (lossless: 14-bit sizes less one, packed after a
/// signature byte) or `VP8X` (extended: the canvas's 24-bit sizes less one).
enum WebPHeader {
    static func pixelSize(_ reader: ByteReader) throws(ImageError) -> PixelSize {
        guard reader.has(16, at: 0) else { throw ImageError.truncated(.webp) }
        if reader.matches("VP8 ", at: 12) {
            guard try reader.byte(at: 23) == 0x9D, try reader.byte(at: 24) == 0x01, try reader.byte(at: 25) == 0x2A else {
                throw ImageError.invalidHeader(.webp, "the lossy key frame has no start code")
            }
            let width = try reader.uint16(at: 26, bigEndian: false) & 0x3FFF
            let height = try reader.uint16(at: 28, bigEndian: false) & 0x3FFF
            return try .stated(width: width, height: height, by: .webp)
        }
        if reader.matches("VP8L", at: 12) {
            guard try reader.byte(at: 20) == 0x2F else { throw ImageError.invalidHeader(.webp, "the lossless signature byte is missing") }
            let bits = try reader.uint32(at: 21, bigEndian: false)
            return try .stated(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1, by: .webp)
        }
        if reader.matches("VP8X", at: 12) {
            let width = try reader.uint24(at: 24, bigEndian: false) + 1
            let height = try reader.uint24(at: 27, bigEndian: false) + 1
            return try .stated(width: width, height: height, by: .webp)
        }
        throw ImageError.invalidHeader(.webp, "the first chunk is neither VP8, VP8L nor VP8X")
    }
}
