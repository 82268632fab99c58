import Foundation
import JewzHTTPCore
import JewzLocking

/// Finds the recorded entry for a request: the same method and URL (the query's order aside),
/// and, when asked, the same body and the same values of named headers. Entries that match
/// alike answer in the order they were recorded; past the last, the last answers again.
final class HARMatcher: Sendable {
    private let entries: [HTTPArchive.Entry]
    private let keys: [String]
    private let matchesBody: Bool
    private let matchedHeaders: [String]
    /// How many times each entry index's key has answered.
    private let used = Mutex<[String: Int]>([:])

    init(archive: HTTPArchive, matchesBody: Bool, matchedHeaders: [String]) {
        entries = archive.log.entries
        keys = entries.map { Self.key(method: $0.request.method, url: $0.request.url) }
        self.matchesBody = matchesBody
        self.matchedHeaders = matchedHeaders
    }

    /// The entry for `request`, whose body is `body` (read only when bodies are matched).
    func entry(for request: HTTPRequest, body: Data?) -> HTTPArchive.Entry? {
        let key = Self.key(method: request.method.rawValue, url: HTTPArchive.recordedURL(request.url))
        let candidates = entries.indices.filter { index in
            keys[index] == key && headersMatch(entries[index].request, request) && (!matchesBody || bodyMatches(entries[index].request, body))
        }
        guard let last = candidates.last else { return nil }
        let turn = used.withLock { used in
            defer { used[key, default: 0] += 1 }
            return used[key, default: 0]
        }
        return entries[turn < candidates.count ? candidates[turn] : last]
    }

    /// The recorded request most like `request` (same host, then path, then method), as
    /// `METHOD URL`; `nil` when none has its host.
    func closest(to request: HTTPRequest) -> String? {
        let url = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let scored = entries.compactMap { entry -> (Int, String)? in
            guard let recorded = URLComponents(string: entry.request.url), recorded.host == url?.host else { return nil }
            let score = 1 + (recorded.path == url?.path ? 2 : 0) + (entry.request.method == request.method.rawValue ? 1 : 0)
            return (score, "\(entry.request.method) \(entry.request.url)")
        }
        return scored.max { $0.0 < $1.0 }?.1
    }

    private func headersMatch(_ recorded: HTTPArchive.Request, _ request: HTTPRequest) -> Bool {
        matchedHeaders.allSatisfy { name in
            recorded.headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value) == request.headers.values(for: name)
        }
    }

    private func bodyMatches(_ recorded: HTTPArchive.Request, _ body: Data?) -> Bool {
        let recordedBody = recorded.postData.flatMap { HARMatcher.bytes(text: $0.text, encoding: $0.encoding) } ?? Data()
        return recordedBody == (body ?? Data())
    }

    /// A HAR text's bytes: base64-decoded when so encoded.
    static func bytes(text: String?, encoding: String?) -> Data? {
        guard let text else { return nil }
        return encoding == "base64" ? Data(base64Encoded: text) : Data(text.utf8)
    }

    /// Method and URL with the query's parameters sorted, so that their order does not count.
    static func key(method: String, url: String) -> String {
        guard var components = URLComponents(string: url) else { return method.uppercased() + " " + url }
        components.fragment = nil
        if let items = components.queryItems, !items.isEmpty {
            components.queryItems = items.sorted { ($0.name, $0.value ?? "") < ($1.name, $1.value ?? "") }
        }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        return method.uppercased() + " " + (components.string ?? url)
    }
}
