/// Checks UTF-8 as it arrives in pieces, so that a text message split across fragments fails
/// at the first bad byte rather than once it is whole (RFC 6455 §8.1: fail fast).
struct UTF8Validator {
    /// Continuation bytes still expected for the current character.
    private var pending = 0
    /// The range the next byte must be in: narrower than 80–BF right after some lead bytes,
    /// which rules out overlong forms, surrogates and code points above U+10FFFF.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    /// Whether every byte so far can start or continue valid UTF-8.
    mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes {
            if pending == 0 {
                switch byte {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: pending = 1
                case 0xE0: (pending, lower) = (2, 0xA0)
                case 0xE1...0xEC, 0xEE...0xEF: pending = 2
                case 0xED: (pending, upper) = (2, 0x9F)
                case 0xF0: (pending, lower) = (3, 0x90)
                case 0xF1...0xF3: pending = 3
                case 0xF4: (pending, upper) = (3, 0x8F)
                default: return false
                }
            } else {
                guard byte >= lower, byte <= upper else { return false }
                pending -= 1
                (lower, upper) = (0x80, 0xBF)
            }
        }
        return true
    }

    /// Whether the text ended on a whole character.
    var isComplete: Bool { pending == 0 }
}
