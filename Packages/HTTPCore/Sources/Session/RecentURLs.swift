import Foundation
import JewzLocking

/// The URLs a session made last from strings, by their text: a client asks for the same few
/// endpoints again and again, and Foundation's parse of one took a tenth of the instructions
/// of a whole request through the cycle (a third of a cache hit's).
///
/// Holds the last ``capacity`` strings that made sendable http(s) URLs, first in, first out;
/// a string it does not hold costs a few comparisons more than the parse alone.
final class RecentURLs: Sendable {
    static let capacity = 8

    private struct Entry {
        let text: String
        let url: URL
    }

    private let entries = Mutex<[Entry]>([])

    /// The URL `text` spells, characters that may not appear in a URL percent-encoded, when it
    /// is an absolute http(s) URL with a host (``URL/isSendableHTTP``); `nil` otherwise.
    func sendableURL(_ text: String) -> URL? {
        if let known = entries.withLock({ $0.first { $0.text == text }?.url }) { return known }
        guard let url = URL(encodingIfNeeded: text), url.isSendableHTTP else { return nil }
        entries.withLock { entries in
            if entries.count == Self.capacity { entries.removeFirst() }
            entries.append(Entry(text: text, url: url))
        }
        return url
    }
}
