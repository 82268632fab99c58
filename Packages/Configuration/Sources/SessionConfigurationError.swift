/// Why a session's configuration could not be read from a `ConfigReader`: the key whose value
/// cannot be used, and what it takes. Nothing of the session changes when it is thrown.
///
/// A struct with a growable ``Code``, as `HTTPError`: switch over ``code`` with a `default`.
public struct SessionConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, as a value to compare with the static members; new ones may come.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The key's value is not of the kind it takes, or out of its range.
        public static let invalidValue = Code("invalidValue")
        /// A file the key names (TLS roots, a client certificate or key) cannot be read.
        public static let unreadableFile = Code("unreadableFile")

        /// The code's name.
        public var description: String { name }
    }

    /// What is wrong.
    public let code: Code
    /// The key, relative to the reader's scope: `timeout.connect`.
    public let key: String
    /// What the key takes, or why its file cannot be read; never the value of a secret.
    public let expected: String

    static func invalid(_ key: String, expected: String) -> SessionConfigurationError {
        SessionConfigurationError(code: .invalidValue, key: key, expected: expected)
    }

    static func unreadable(_ key: String, because reason: String) -> SessionConfigurationError {
        SessionConfigurationError(code: .unreadableFile, key: key, expected: reason)
    }

    /// The key and what to give it.
    public var description: String {
        switch code {
        case .invalidValue: "The configuration key '\(key)' has a value that cannot be used: give it \(expected)."
        case .unreadableFile: "The file the configuration key '\(key)' names cannot be read (\(expected)); check its path and permissions."
        default: "\(code) for the configuration key '\(key)': \(expected)"
        }
    }
}
