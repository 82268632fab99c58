/// MD4 (RFC 1320), which NTLM hashes the password with and swift-crypto does not offer. Broken
/// as a hash: use it for nothing but NTLM's password hash.
package enum MD4 {
    /// The 16-byte MD4 digest of `message`.
    package static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
        var padded = Array(message)
        let bitLength = UInt64(padded.count) &* 8
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        var words = [UInt32](repeating: 0, count: 16)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                let offset = block + index * 4
                words[index] = UInt32(padded[offset]) | UInt32(padded[offset + 1]) << 8
                    | UInt32(padded[offset + 2]) << 16 | UInt32(padded[offset + 3]) << 24
            }
            state = compress(state, words)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in
            (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32($0 * 8)) }
        }
    }

    /// The three rounds of RFC 1320 §3.4 over one 16-word block.
    private static func compress(_ state: (UInt32, UInt32, UInt32, UInt32), _ x: [UInt32]) -> (UInt32, UInt32, UInt32, UInt32) {
        var (a, b, c, d) = state
        func rotate(_ value: UInt32, _ by: UInt32) -> UInt32 { value << by | value >> (32 - by) }

        let f: (UInt32, UInt32, UInt32) -> UInt32 = { x, y, z in x & y | ~x & z }
        for i in stride(from: 0, to: 16, by: 4) {
            a = rotate(a &+ f(b, c, d) &+ x[i], 3)
            d = rotate(d &+ f(a, b, c) &+ x[i + 1], 7)
            c = rotate(c &+ f(d, a, b) &+ x[i + 2], 11)
            b = rotate(b &+ f(c, d, a) &+ x[i + 3], 19)
        }
        let g: (UInt32, UInt32, UInt32) -> UInt32 = { x, y, z in x & y | x & z | y & z }
        for i in 0..<4 {
            a = rotate(a &+ g(b, c, d) &+ x[i] &+ 0x5a82_7999, 3)
            d = rotate(d &+ g(a, b, c) &+ x[i + 4] &+ 0x5a82_7999, 5)
            c = rotate(c &+ g(d, a, b) &+ x[i + 8] &+ 0x5a82_7999, 9)
            b = rotate(b &+ g(c, d, a) &+ x[i + 12] &+ 0x5a82_7999, 13)
        }
        let h: (UInt32, UInt32, UInt32) -> UInt32 = { x, y, z in x ^ y ^ z }
        for i in [0, 2, 1, 3] {
            a = rotate(a &+ h(b, c, d) &+ x[i] &+ 0x6ed9_eba1, 3)
            d = rotate(d &+ h(a, b, c) &+ x[i + 8] &+ 0x6ed9_eba1, 9)
            c = rotate(c &+ h(d, a, b) &+ x[i + 4] &+ 0x6ed9_eba1, 11)
            b = rotate(b &+ h(c, d, a) &+ x[i + 12] &+ 0x6ed9_eba1, 15)
        }
        return (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
