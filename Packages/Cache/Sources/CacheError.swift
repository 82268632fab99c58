/// What went wrong with a cache's store. A struct with a growable ``Code``, so that a new
/// failure does not break a caller's `switch`.
public struct CacheError: Error, Sendable, CustomStringConvertible {
    /// A kind of failure. A struct, so that a new one does not break a caller's `switch`.
    public struct Code: Sendable, Hashable {
        let name: String

        /// The store's directory could not be made, read or written.
        public static let directoryUnusable = Code(name: "directoryUnusable")
        /// A stored entry is not whole or not ours; it is discarded, never served.
        public static let corruptEntry = Code(name: "corruptEntry")
        /// A response is larger than the store's whole size limit; it is not stored.
        public static let entryTooLarge = Code(name: "entryTooLarge")
    }

    /// What went wrong.
    public let code: Code
    /// What went wrong and what to do about it.
    public let description: String

    static func directoryUnusable(_ path: String, _ reason: String) -> CacheError {
        CacheError(
            code: .directoryUnusable,
            description: "The cache directory \(path) cannot be used (\(reason)): give a directory this process may create and write.")
    }

    static func corruptEntry(_ reason: String) -> CacheError {
        CacheError(code: .corruptEntry, description: "A cache entry is damaged (\(reason)); it was discarded.")
    }

    static func entryTooLarge(limit: Int) -> CacheError {
        CacheError(
            code: .entryTooLarge,
            description: "A response is larger than the cache's size limit of \(limit) bytes, so it was not stored: raise the limit to keep it.")
    }
}
