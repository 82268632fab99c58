/// What went wrong with a cache's store. A struct with a growable ``Code``, so that a new
/// failure does not break a caller's `switch`.
public struct CacheError: Error, Sendable, CustomStringConvertible {
    public struct Code: Sendable, Hashable {
        let name: String

        /// The store's directory could not be made, read or written.
        public static let directoryUnusable = Code(name: "directoryUnusable")
        /// A stored entry is not whole or not ours; it is discarded, never served.
        public static let corruptEntry = Code(name: "corruptEntry")
    }

    public let code: Code
    public let description: String

    static func directoryUnusable(_ path: String, _ reason: String) -> CacheError {
        CacheError(
            code: .directoryUnusable,
            description: "The cache directory \(path) cannot be used (\(reason)): give a directory this process may create and write.")
    }

    static func corruptEntry(_ reason: String) -> CacheError {
        CacheError(code: .corruptEntry, description: "A cache entry is damaged (\(reason)); it was discarded.")
    }
}
