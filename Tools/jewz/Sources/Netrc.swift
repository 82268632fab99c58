import Foundation

/// The login and password a `.netrc` file gives a host, as curl and httpie read it: `machine
/// HOST login USER password PASSWORD`, tokens separated by any white space, a `default` entry
/// for any host not named, `macdef` bodies skipped up to their blank line.
struct Netrc {
    struct Entry: Equatable {
        var login: String?
        var password: String?
    }

    private var machines: [String: Entry] = [:]
    private var fallback: Entry?

    /// The entries of `text`; a later entry for the same host does not replace the first.
    init(_ text: String) {
        var current: (host: String?, entry: Entry)?
        func close() {
            guard let finished = current else { return }
            if let host = finished.host {
                if machines[host] == nil { machines[host] = finished.entry }
            } else if fallback == nil {
                fallback = finished.entry
            }
            current = nil
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        var tokens: [Substring] = []
        while !lines.isEmpty || !tokens.isEmpty {
            if tokens.isEmpty {
                tokens = lines.removeFirst().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
                continue
            }
            let word = tokens.removeFirst()
            switch word {
            case "machine":
                close()
                current = (tokens.isEmpty ? "" : String(tokens.removeFirst()).lowercased(), Entry())
            case "default":
                close()
                current = (nil, Entry())
            case "login" where current != nil && !tokens.isEmpty:
                current?.entry.login = String(tokens.removeFirst())
            case "password" where current != nil && !tokens.isEmpty:
                current?.entry.password = String(tokens.removeFirst())
            case "macdef":
                // A macro's body runs to the first empty line.
                close()
                tokens = []
                while let line = lines.first, !line.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeFirst() }
            default:
                continue
            }
        }
        close()
    }

    /// The entry for `host` (compared without case), else the `default` one.
    func entry(forHost host: String) -> Entry? {
        machines[host.lowercased()] ?? fallback
    }
}
