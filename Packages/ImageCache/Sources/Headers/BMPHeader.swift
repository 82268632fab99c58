/// BMP: after the 14-byte file header, a DIB header whose size tells its kind — the OS/2
/// core header (16-bit sizes) or a Windows one (32-bit signed sizes; a negative height means
/// rows stored top-down).
enum BMPHeader {
    static func pixelSize(_ reader: ByteReader) throws(ImageError) -> PixelSize {
        let headerSize = try reader.uint32(at: 14, bigEndian: false)
        switch headerSize {
        case 12:
            let width = try reader.uint16(at: 18, bigEndian: false)
            let height = try reader.uint16(at: 20, bigEndian: false)
            return try .stated(width: width, height: height, by: .bmp)
        case 16, 40, 52, 56, 64, 108, 124:
            let width = Int(Int32(truncatingIfNeeded: try reader.uint32(at: 18, bigEndian: false)))
            let height = Int(Int32(truncatingIfNeeded: try reader.uint32(at: 22, bigEndian: false)))
            guard height != Int(Int32.min) else { throw ImageError.invalidHeader(.bmp, "a height of −2³¹") }
            return try .stated(width: width, height: abs(height), by: .bmp)
        default:
            throw ImageError.invalidHeader(.bmp, "an unknown DIB header of \(headerSize) bytes")
        }
    }
}
