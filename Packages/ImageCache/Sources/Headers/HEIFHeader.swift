/// HEIC and AVIF: ISO base media files (boxes of a length and a type). The brands in `ftyp`
/// tell the format; the size is the largest `ispe` (image spatial extents) property in
/// `meta` → `iprp` → `ipco` — the primary image's, as thumbnails are smaller.
enum HEIFHeader {
    private static let heicBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis"]
    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let genericBrands: Set<String> = ["mif1", "msf1"]

    /// HEIC or AVIF by the `ftyp` box's brands; `nil` for other ISO media (MP4, QuickTime).
    static func format(_ reader: ByteReader) -> ImageFormat? {
        guard reader.matches("ftyp", at: 4), let size = try? reader.uint32(at: 0, bigEndian: true), size >= 16 else { return nil }
        var brands = [brand(reader, at: 8)]
        var offset = 16
        while offset + 4 <= min(size, reader.bytes.count) {
            brands.append(brand(reader, at: offset))
            offset += 4
        }
        if brands.contains(where: avifBrands.contains) { return .avif }
        if brands.contains(where: heicBrands.contains) { return .heic }
        return genericBrands.contains(brands[0]) ? .heic : nil
    }

    static func pixelSize(_ reader: ByteReader, format: ImageFormat) throws(ImageError) -> PixelSize {
        guard let meta = try box("meta", in: 0..<reader.bytes.count, reader, format: format) else {
            throw ImageError.invalidHeader(format, "no meta box")
        }
        // meta is a full box: a version and flags before its children.
        guard meta.count >= 4 else { throw ImageError.invalidHeader(format, "an empty meta box") }
        guard let properties = try box("iprp", in: (meta.lowerBound + 4)..<meta.upperBound, reader, format: format),
            let container = try box("ipco", in: properties, reader, format: format)
        else { throw ImageError.invalidHeader(format, "no item properties") }
        var largest: PixelSize?
        var offset = container.lowerBound
        while let (type, range) = try nextBox(at: offset, limit: container.upperBound, reader, format: format) {
            if type == "ispe" {
                let width = try reader.uint32(at: range.lowerBound + 4, bigEndian: true)
                let height = try reader.uint32(at: range.lowerBound + 8, bigEndian: true)
                let size = try PixelSize.stated(width: width, height: height, by: format)
                if Double(size.width) * Double(size.height) > largest.map({ Double($0.width) * Double($0.height) }) ?? 0 {
                    largest = size
                }
            }
            offset = range.upperBound
        }
        guard let largest else { throw ImageError.invalidHeader(format, "no image spatial extents (ispe)") }
        return largest
    }

    /// The contents of the first box of `type` directly within `range`.
    private static func box(
        _ type: String, in range: Range<Int>, _ reader: ByteReader, format: ImageFormat
    ) throws(ImageError) -> Range<Int>? {
        var offset = range.lowerBound
        while let (found, contents) = try nextBox(at: offset, limit: range.upperBound, reader, format: format) {
            if found == type { return contents }
            offset = contents.upperBound
        }
        return nil
    }

    /// The type and contents of the box at `offset`, `nil` at `limit`.
    ///
    /// - Throws: ``ImageError/Code/invalidHeader`` for a box whose length overruns its parent.
    private static func nextBox(
        at offset: Int, limit: Int, _ reader: ByteReader, format: ImageFormat
    ) throws(ImageError) -> (type: String, contents: Range<Int>)? {
        guard offset + 8 <= limit else { return nil }
        var size = try reader.uint32(at: offset, bigEndian: true)
        var header = 8
        if size == 1 {
            size = try reader.uint64(at: offset + 8, bigEndian: true)
            header = 16
        } else if size == 0 {
            size = limit - offset
        }
        guard size >= header, size <= limit - offset else {
            throw ImageError.invalidHeader(format, "a box of \(size) bytes at byte \(offset)")
        }
        return (brand(reader, at: offset + 4), (offset + header)..<(offset + size))
    }

    private static func brand(_ reader: ByteReader, at offset: Int) -> String {
        guard reader.has(4, at: offset) else { return "" }
        return String(decoding: UnsafeRawBufferPointer(rebasing: reader.bytes[offset..<(offset + 4)]), as: UTF8.self)
    }
}
