/// GIF87a and GIF89a: the logical screen's width and height, little-endian, right after the
/// 6-byte signature.
enum GIFHeader {
    static func pixelSize(_ reader: ByteReader) throws(ImageError) -> PixelSize {
        let width = try reader.uint16(at: 6, bigEndian: false)
        let height = try reader.uint16(at: 8, bigEndian: false)
        return try .stated(width: width, height: height, by: .gif)
    }
}
