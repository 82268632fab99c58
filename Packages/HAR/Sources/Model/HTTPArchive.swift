import Foundation

/// An HTTP Archive (HAR 1.2): the exchanges a client made, as browsers' developer tools,
/// Charles and mitmproxy save them. Written by ``HARRecorder``, answered from by
/// ``HARReplayTransport``, and readable by any HAR viewer.
///
/// The types mirror the format's objects field for field; optional fields are left out when
/// `nil`. Times are in milliseconds, sizes in bytes, -1 where a value is unknown.
public struct HTTPArchive: Codable, Sendable, Equatable {
    /// The archive's one object, holding every exchange.
    public var log: Log

    /// An archive of `log`.
    public init(log: Log) {
        self.log = log
    }

    /// The archive's one object.
    public struct Log: Codable, Sendable, Equatable {
        /// `1.2`.
        public var version: String
        /// The program that wrote the archive.
        public var creator: Creator
        /// The exchanges, in the order they started.
        public var entries: [Entry]
        /// A comment for people reading the archive.
        public var comment: String?

        /// A log of `entries`, written by `creator`.
        public init(version: String = "1.2", creator: Creator = .jewzruxin, entries: [Entry] = [], comment: String? = nil) {
            self.version = version
            self.creator = creator
            self.entries = entries
            self.comment = comment
        }
    }

    /// The program that wrote the archive.
    public struct Creator: Codable, Sendable, Equatable {
        /// The program's name.
        public var name: String
        /// The program's version.
        public var version: String

        /// A creator named `name`, at `version`.
        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }

        /// This toolkit.
        public static let jewzruxin = Creator(name: "Jewzruxin", version: "0.1")
    }

    /// A `name`/`value` pair: a header, a query parameter, a form field.
    public struct NameValue: Codable, Sendable, Equatable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String

        /// The pair `name`, `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}
