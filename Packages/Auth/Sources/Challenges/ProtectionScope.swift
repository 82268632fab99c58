import Foundation

/// Where credentials answered once are sent again without being asked: the same origin, at or
/// below the directory of the URL that was challenged (RFC 7617 §2.2).
///
/// Matched as a prefix of the URL's text (`http://host:8080/dir/`), which costs no parsing per
/// request; a URL written differently (another case, an explicit default port) is not
/// matched, and is then answered after its challenge instead. The prefix ends in a `/` after
/// the authority, so `http://host/` never matches `http://host.evil/`.
struct ProtectionScope: Sendable, Hashable {
    let prefix: String

    init(_ url: URL) {
        let text = Self.withoutQuery(url.absoluteString)
        let authorityEnd = text.range(of: "://").flatMap { text[$0.upperBound...].firstIndex(of: "/") } ?? text.endIndex
        let path = text[authorityEnd...]
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
        prefix = String(text[..<authorityEnd]) + directory
    }

    func contains(_ url: URL) -> Bool {
        let text = url.absoluteString
        return text.hasPrefix(prefix) || (text + "/") == prefix
    }

    private static func withoutQuery(_ text: String) -> Substring {
        text[..<(text.firstIndex { $0 == "?" || $0 == "#" } ?? text.endIndex)]
    }
}
