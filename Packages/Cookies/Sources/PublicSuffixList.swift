import Foundation
import JewzHTTPCore

/// The Public Suffix List's rules (Resources/public_suffix_list.dat): names under which anyone
/// can register, so that no cookie may be set for them (`co.uk`, `github.io`).
///
/// Read once, on first use, from the module's resource bundle. Should the bundle be missing
/// (a binary copied away from it), every domain counts as a public suffix: cookies then stay
/// with the host that set them, which is safe, never broader.
struct PublicSuffixList: Sendable {
    private let rules: Set<String>
    private let wildcards: Set<String>
    private let exceptions: Set<String>
    let isLoaded: Bool

    static let shared = PublicSuffixList(contents: Self.bundledContents())

    init(contents: String?) {
        var rules = Set<String>()
        var wildcards = Set<String>()
        var exceptions = Set<String>()
        for line in (contents ?? "").split(whereSeparator: \.isNewline) {
            let rule = line.prefix { !$0.isWhitespace }.lowercased()
            if rule.isEmpty || rule.hasPrefix("//") { continue }
            if rule.hasPrefix("!") {
                exceptions.insert(String(rule.dropFirst()))
            } else if rule.hasPrefix("*.") {
                wildcards.insert(String(rule.dropFirst(2)))
            } else {
                rules.insert(rule)
            }
        }
        self.rules = rules
        self.wildcards = wildcards
        self.exceptions = exceptions
        isLoaded = !rules.isEmpty
    }

    /// Whether `domain` (lowercased, without a leading dot) is a public suffix.
    func isPublicSuffix(_ domain: String) -> Bool {
        guard isLoaded else { return true }
        if exceptions.contains(domain) { return false }
        if rules.contains(domain) { return true }
        guard let dot = domain.firstIndex(of: ".") else {
            // The list's implicit rule `*`: every top-level name is a suffix.
            return true
        }
        return wildcards.contains(String(domain[domain.index(after: dot)...]))
    }

    /// The list as shipped beside the module, found without `Bundle.module` (whose accessor
    /// stops the process when the bundle is missing).
    private static func bundledContents() -> String? {
        let directories = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
        for directory in directories {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            for entry in entries where entry.hasSuffix("_JewzCookies.resources") {
                let file = directory.appendingPathComponent(entry).appendingPathComponent("public_suffix_list.dat")
                if let contents = try? String(contentsOf: file, encoding: .utf8) { return contents }
            }
        }
        return nil
    }
}
