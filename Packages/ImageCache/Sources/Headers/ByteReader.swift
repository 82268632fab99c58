/// Bounds-checked reads of integers from an image's header bytes: every read past the end is
/// ``ImageError/Code/truncated``, so no header, however cut or lying, can read out of bounds.
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    let format: ImageFormat

    /// Whether `count` bytes are there from `offset`.
    func has(_ count: Int, at offset: Int) -> Bool {
        offset >= 0 && count >= 0 && offset <= bytes.count - count
    }

    /// - Throws: ``ImageError/Code/truncated``.
    func byte(at offset: Int) throws(ImageError) -> UInt8 {
        guard has(1, at: offset) else { throw ImageError.truncated(format) }
        return bytes[offset]
    }

    /// An unsigned integer of `width` bytes (at most 8) at `offset`.
    ///
    /// - Throws: ``ImageError/Code/truncated``.
    func integer(at offset: Int, width: Int, bigEndian: Bool) throws(ImageError) -> UInt64 {
        guard width <= 8, has(width, at: offset) else { throw ImageError.truncated(format) }
        var value: UInt64 = 0
        for index in 0..<width {
            let byte = UInt64(bytes[offset + (bigEndian ? index : width - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }

    func uint16(at offset: Int, bigEndian: Bool) throws(ImageError) -> Int {
        Int(try integer(at: offset, width: 2, bigEndian: bigEndian))
    }

    func uint24(at offset: Int, bigEndian: Bool) throws(ImageError) -> Int {
        Int(try integer(at: offset, width: 3, bigEndian: bigEndian))
    }

    func uint32(at offset: Int, bigEndian: Bool) throws(ImageError) -> Int {
        Int(try integer(at: offset, width: 4, bigEndian: bigEndian))
    }

    /// A 64-bit offset or length, refused when it does not fit an `Int` (then it points past
    /// any data there can be).
    func uint64(at offset: Int, bigEndian: Bool) throws(ImageError) -> Int {
        let value = try integer(at: offset, width: 8, bigEndian: bigEndian)
        guard value <= UInt64(Int.max) else { throw ImageError.truncated(format) }
        return Int(value)
    }

    /// Whether the bytes at `offset` are `expected`'s ASCII.
    func matches(_ expected: String, at offset: Int) -> Bool {
        let ascii = Array(expected.utf8)
        guard has(ascii.count, at: offset) else { return false }
        return ascii.indices.allSatisfy { bytes[offset + $0] == ascii[$0] }
    }
}
