import Foundation
import Jewzruxin

/// What `--session FILE` remembers between runs, as httpie's sessions do: the headers given
/// on the command line and the cookies the servers set. JSON, written atomically.
struct SessionFile: Codable {
    /// Headers sent with every request of the session, as `[name, value]` pairs in order.
    var headers: [[String]] = []
    var cookies: [HTTPCookie] = []

    /// Headers that describe one request's body or condition, or that the jar handles: not
    /// remembered.
    static func isRemembered(_ name: String) -> Bool {
        let name = name.lowercased()
        return !name.hasPrefix("content-") && !name.hasPrefix("if-") && name != "cookie"
    }

    /// The session in `path`, or an empty one when the file does not exist yet.
    ///
    /// - Throws: the read or decoding error when the file exists but is not a session file.
    static func load(_ path: String) throws -> SessionFile {
        guard FileManager.default.fileExists(atPath: path) else { return SessionFile() }
        return try JSONDecoder().decode(SessionFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The remembered headers with those of this request (which win, by name) merged in.
    func merging(_ given: HTTPHeaderFields) -> [[String]] {
        let remembered = given.filter { Self.isRemembered($0.name) }
        let names = Set(remembered.map { $0.name.lowercased() })
        return headers.filter { $0.count == 2 && !names.contains($0[0].lowercased()) } + remembered.map { [$0.name, $0.value] }
    }

    /// Writes the session to `path` (a temporary file renamed over it).
    func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}
