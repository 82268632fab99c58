import Foundation

/// Why recording or replaying an archive failed. A code added later does not break a `switch`
/// over ``code``.
public struct HARError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// No recorded entry matches a request (strict replay); ``HARError/closest`` is the
        /// nearest one, if any.
        public static let unmatched = Code(name: "unmatched")
        /// The archive cannot be read: missing, or not HAR.
        public static let unreadableArchive = Code(name: "unreadableArchive")
        /// The archive cannot be written where asked.
        public static let unwritableArchive = Code(name: "unwritableArchive")
        /// The entry that matched recorded a failure rather than a response.
        public static let recordedFailure = Code(name: "recordedFailure")

        /// The code's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// What the message names: the request, the path, the reason.
    public let detail: String
    /// For ``Code/unmatched``: the recorded request nearest to the one that found no match,
    /// as `METHOD URL`.
    public let closest: String?

    init(_ code: Code, _ detail: String, closest: String? = nil) {
        self.code = code
        self.detail = detail
        self.closest = closest
    }

    /// What went wrong and what to do about it.
    public var description: String {
        switch code {
        case .unmatched:
            let nearest = closest.map { "; the closest recorded is \($0)" } ?? "; the archive has no request to that host"
            return "No recorded exchange matches \(detail)\(nearest). Record it, or replay with a fallback transport."
        case .unreadableArchive:
            return "The archive cannot be read: \(detail)."
        case .unwritableArchive:
            return "The archive cannot be written: \(detail)."
        case .recordedFailure:
            return "The recorded exchange failed: \(detail)."
        default:
            return "\(code): \(detail)"
        }
    }
}
