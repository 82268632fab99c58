/// Byte classes and percent-encoding for templates. This module depends on nothing, so it keeps
/// its own small encoder rather than HTTPCore's; both follow RFC 3986 §2.
enum URIEncoding {
    /// Flags per byte: bit 0 unreserved, bit 1 reserved, bit 2 allowed in literals,
    /// bit 3 allowed in variable names (besides '.' and %XX).
    private static let classes: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8 { table[Int(byte)] |= 1 }
        for byte in ":/?#[]@!$&'()*+,;=".utf8 { table[Int(byte)] |= 2 }
        // RFC 6570 §2.1's literals, plus "'": the RFC's own examples (and the public suite)
        // use it, and it is a reserved sub-delim that passes through unchanged.
        for byte in UInt8(0x21)...0x7E where !"\"%<>\\^`{|}".utf8.contains(byte) { table[Int(byte)] |= 4 }
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_".utf8 { table[Int(byte)] |= 8 }
        return table
    }()

    /// Compares rather than reads the table: expansion asks for every byte of every value, and
    /// a global table costs an access check and a bounds check each time.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    static func isUnreservedOrReserved(_ byte: UInt8) -> Bool { classes[Int(byte)] & 3 != 0 }
    static func isLiteral(_ byte: UInt8) -> Bool { classes[Int(byte)] & 4 != 0 }
    static func isVariableCharacter(_ byte: UInt8) -> Bool { classes[Int(byte)] & 8 != 0 }

    static func isHexDigit(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    /// The value of a hex digit, either case.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    static func appendPercentEncoded(_ byte: UInt8, to output: inout [UInt8]) {
        func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x37 + nibble }
        output.append(UInt8(ascii: "%"))
        output.append(hex(byte >> 4))
        output.append(hex(byte & 0x0F))
    }

    /// Appends `value` encoded for an expression: unreserved bytes as they are (plus reserved
    /// ones and existing %XX triplets when `allowsReserved`), the rest as %XX. With `prefix`,
    /// only the first `prefix` code points (a triplet counting as one when reserved are allowed).
    static func append(_ value: String, allowsReserved: Bool, prefix: Int?, to output: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            // Most values need no encoding: copy them whole.
            if !allowsReserved, prefix == nil, bytes.allSatisfy(isUnreserved) {
                output.append(contentsOf: bytes)
                return
            }
            var end = bytes.count
            if let prefix { end = prefixEnd(of: bytes, codePoints: prefix, tripletsAsOne: allowsReserved) }
            var index = 0
            while index < end {
                let byte = bytes[index]
                if allowsReserved {
                    if byte == .percent, index + 2 < end, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                        output.append(contentsOf: bytes[index...index + 2])
                        index += 3
                        continue
                    }
                    if isUnreservedOrReserved(byte) {
                        output.append(byte)
                        index += 1
                        continue
                    }
                } else if isUnreserved(byte) {
                    output.append(byte)
                    index += 1
                    continue
                }
                appendPercentEncoded(byte, to: &output)
                index += 1
            }
        }
    }

    /// The byte position after the first `codePoints` code points of UTF-8 `bytes`.
    private static func prefixEnd(of bytes: UnsafeBufferPointer<UInt8>, codePoints: Int, tripletsAsOne: Bool) -> Int {
        var count = 0
        var index = 0
        while index < bytes.count {
            if count == codePoints { return index }
            let byte = bytes[index]
            if tripletsAsOne, byte == .percent, index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) {
                index += 3
            } else {
                index += 1
                // Skip continuation bytes (10xxxxxx) of the same code point.
                while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
            }
            count += 1
        }
        return bytes.count
    }
}
