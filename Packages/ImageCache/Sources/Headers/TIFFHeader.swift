/// TIFF and BigTIFF: the byte order (`II` or `MM`), then the first image file directory, whose
/// ImageWidth (256) and ImageLength (257) entries hold the size as SHORT or LONG (or LONG8).
enum TIFFHeader {
    private static let imageWidth = 256
    private static let imageLength = 257
    /// More entries than any real first directory has: a lying count ends the search.
    private static let maximumEntries = 4_096

    static func pixelSize(_ reader: ByteReader) throws(ImageError) -> PixelSize {
        let bigEndian = reader.matches("MM", at: 0)
        let version = try reader.uint16(at: 2, bigEndian: bigEndian)
        let isBig = version == 43
        let directory = isBig ? try reader.uint64(at: 8, bigEndian: bigEndian) : try reader.uint32(at: 4, bigEndian: bigEndian)
        // Checked before any arithmetic with it: a lying offset must not overflow.
        guard directory < reader.bytes.count else { throw ImageError.truncated(.tiff) }
        let count = isBig ? try reader.uint64(at: directory, bigEndian: bigEndian) : try reader.uint16(at: directory, bigEndian: bigEndian)
        guard count <= maximumEntries else { throw ImageError.invalidHeader(.tiff, "a directory of \(count) entries") }
        let entrySize = isBig ? 20 : 12
        let first = directory + (isBig ? 8 : 2)
        var width: Int?
        var height: Int?
        for index in 0..<count where width == nil || height == nil {
            let entry = first + index * entrySize
            let tag = try reader.uint16(at: entry, bigEndian: bigEndian)
            guard tag == imageWidth || tag == imageLength else { continue }
            let type = try reader.uint16(at: entry + 2, bigEndian: bigEndian)
            let value = entry + (isBig ? 12 : 8)
            let number: Int
            switch type {
            case 3: number = try reader.uint16(at: value, bigEndian: bigEndian)  // SHORT
            case 4: number = try reader.uint32(at: value, bigEndian: bigEndian)  // LONG
            case 16 where isBig: number = try reader.uint64(at: value, bigEndian: bigEndian)  // LONG8
            default: throw ImageError.invalidHeader(.tiff, "a size of field type \(type)")
            }
            if tag == imageWidth { width = number } else { height = number }
        }
        guard let width, let height else { throw ImageError.invalidHeader(.tiff, "the first directory gives no size") }
        return try .stated(width: width, height: height, by: .tiff)
    }
}
