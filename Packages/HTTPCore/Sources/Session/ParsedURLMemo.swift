import Foundation
import JewzLocking

/// The URL a session made last from a string, with that string: a client asks for the same
/// endpoint again and again, and Foundation's parse is a large share of a request's
/// instructions (Tools/Benchmarks/README.md has the figures).
///
/// One entry, compared byte for byte, replaced by the first string that misses it (and, while
/// misses go on, by every sixteenth): where every request names a URL of its own, a lookup
/// costs a comparison of lengths (and of bytes when they are equal), where a list of strings, or `String`'s `==` (canonical equivalence), cost more than the
/// parse saves.
final class ParsedURLMemo: Sendable {
    private struct Entry {
        let text: String
        let url: URL

        /// Whether `text` has `other`'s UTF-8, byte for byte.
        func matches(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
            let count = other.count
            guard text.utf8.count == count else { return false }
            // A stored string is native, so contiguous; the fallback is for form's sake.
            return text.utf8.withContiguousStorageIfAvailable { mine in
                guard let mine = mine.baseAddress, let other = other.baseAddress else { return true }
                return memcmp(mine, other, count) == 0
            } ?? text.utf8.elementsEqual(other)
        }
    }

    private struct Memo {
        var entry: Entry?
        /// Lookups that missed since the last that found the entry.
        var misses = 0
    }

    private let memo = Mutex(Memo())

    /// The URL `text` spells, characters that may not appear in a URL percent-encoded, when it
    /// is an absolute http(s) URL with a host (``URL/isSendableHTTP``); `nil` otherwise.
    func sendableURL(_ text: String) -> URL? {
        var text = text
        let (known, misses) = text.withUTF8 { bytes in
            memo.withLock { memo -> (URL?, Int) in
                if memo.entry?.matches(bytes) == true {
                    memo.misses = 0
                    return (memo.entry?.url, 0)
                }
                memo.misses += 1
                return (nil, memo.misses)
            }
        }
        if let known { return known }
        guard let url = URL(encodingIfNeeded: text), url.isSendableHTTP else { return nil }
        // While every request names a URL of its own, the entry is replaced only now and then:
        // the replacement, not the comparison, was most of what a miss cost.
        if misses == 1 || misses.isMultiple(of: 16) {
            let entry = Entry(text: text, url: url)
            memo.withLock { $0.entry = entry }
        }
        return url
    }
}
