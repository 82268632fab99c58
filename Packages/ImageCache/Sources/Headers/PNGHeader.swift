/// PNG: the 8-byte signature, then the IHDR chunk, which the specification puts first (width
/// and height, big-endian, at bytes 16 and 20).
enum PNGHeader {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func pixelSize(_ reader: ByteReader) throws(ImageError) -> PixelSize {
        guard reader.has(24, at: 0) else { throw ImageError.truncated(.png) }
        guard reader.matches("IHDR", at: 12) else { throw ImageError.invalidHeader(.png, "the first chunk is not IHDR") }
        guard try reader.uint32(at: 8, bigEndian: true) == 13 else { throw ImageError.invalidHeader(.png, "IHDR is not 13 bytes long") }
        let width = try reader.uint32(at: 16, bigEndian: true)
        let height = try reader.uint32(at: 20, bigEndian: true)
        guard width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw ImageError.invalidHeader(.png, "a side larger than 2³¹ − 1")
        }
        return try .stated(width: width, height: height, by: .png)
    }
}
