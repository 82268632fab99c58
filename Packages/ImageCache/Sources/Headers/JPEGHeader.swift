/// JPEG: the markers after SOI, skipped by their lengths (APPn — EXIF, JFIF, ICC — tables,
/// comments) up to the first SOFn frame header, which holds height and width. Baseline,
/// progressive, lossless and arithmetic-coded frames all have one.
enum JPEGHeader {
    static func pixelSize(_ reader: ByteReader) throws(ImageError) -> PixelSize {
        var offset = 2
        while true {
            guard try reader.byte(at: offset) == 0xFF else {
                throw ImageError.invalidHeader(.jpeg, "no marker at byte \(offset)")
            }
            // Any number of 0xFF fill bytes may precede a marker.
            var marker = try reader.byte(at: offset + 1)
            offset += 1
            while marker == 0xFF {
                offset += 1
                marker = try reader.byte(at: offset)
            }
            offset += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // no length: TEM, RSTn
            case 0xD8:
                throw ImageError.invalidHeader(.jpeg, "a second start-of-image marker")
            case 0xD9, 0xDA:
                throw ImageError.invalidHeader(.jpeg, "the image data starts before any frame header")
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                // SOFn: length (2), precision (1), height (2), width (2).
                let height = try reader.uint16(at: offset + 3, bigEndian: true)
                let width = try reader.uint16(at: offset + 5, bigEndian: true)
                // A height of 0 is defined later by a DNL marker, after the scan: not in the header.
                return try .stated(width: width, height: height, by: .jpeg)
            default:
                let length = try reader.uint16(at: offset, bigEndian: true)
                guard length >= 2 else { throw ImageError.invalidHeader(.jpeg, "a segment \(length) bytes long") }
                offset += length
            }
        }
    }
}
