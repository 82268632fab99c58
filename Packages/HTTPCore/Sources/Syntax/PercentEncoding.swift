/// Percent-encoding as RFC 3986 defines it, and the WHATWG form variant: the one
/// implementation the whole toolkit uses (query merging, form bodies, templates of callers).
package enum PercentEncoding {
    /// Which bytes are written as themselves; every other byte becomes `%XX`.
    package struct AllowedBytes: Sendable {
        private let table: [Bool]

        /// Allows the ASCII characters of `characters` besides the other allowed ones.
        package init(_ characters: String) {
            var table = [Bool](repeating: false, count: 256)
            for byte in characters.utf8 { table[Int(byte)] = true }
            self.table = table
        }

        /// RFC 3986 unreserved characters: `A-Z a-z 0-9 - . _ ~`.
        package static let unreserved = AllowedBytes(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

        /// The bytes the WHATWG `application/x-www-form-urlencoded` serializer keeps:
        /// `A-Z a-z 0-9 * - . _` (space is handled separately, as `+`).
        package static let formURLEncoded = AllowedBytes(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._")

        func contains(_ byte: UInt8) -> Bool { table[Int(byte)] }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Encodes the UTF-8 bytes of `string`, keeping `allowed` bytes and writing the rest as `%XX`.
    ///
    /// - Parameter spaceAsPlus: writes a space as `+`, as HTML forms do.
    package static func encode(
        _ string: some StringProtocol, allowing allowed: AllowedBytes = .unreserved,
        spaceAsPlus: Bool = false
    ) -> String {
        let utf8 = Array(string.utf8)
        if utf8.allSatisfy(allowed.contains) { return String(string) }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if allowed.contains(byte) {
                output.append(byte)
            } else if spaceAsPlus, byte == 0x20 {
                output.append(0x2B)
            } else {
                output.append(0x25)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `%XX` triplets (and `+` as a space when asked).
    ///
    /// - Returns: `nil` when a `%` is not followed by two hex digits or the bytes are not UTF-8.
    package static func decode(_ string: some StringProtocol, plusAsSpace: Bool = false) -> String? {
        let utf8 = Array(string.utf8)
        if !utf8.contains(0x25), !(plusAsSpace && utf8.contains(0x2B)) { return String(string) }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == 0x25 {
                guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]),
                    let low = hexValue(utf8[index + 2])
                else { return nil }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusAsSpace && byte == 0x2B ? 0x20 : byte)
                index += 1
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    /// The value of a hex digit, either case: `0`–`9` by subtraction, letters lowercased first.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        let digit = byte &- 0x30
        let letter = (byte | 0x20) &- 0x61
        return digit < 10 ? digit : letter < 6 ? letter + 10 : nil
    }
}
