import Foundation

/// An HTTP Archive (HAR 1.2): the exchanges a client made, as browsers' developer tools,
/// Charles and mitmproxy save them. Written by ``HARRecorder``, answered from by
/// ``HARReplayTransport``, and readable by any HAR viewer.
///
/// The types mirror the format's objects field for field; optional fields are left out when
/// `nil`. Times are in milliseconds, sizes in bytes, -1 where a value is unknown.
public struct HTTPArchive: Codable, Sendable, Equatable {
    public var log: Log

    public init(log: Log) {
        self.log = log
    }

    /// The archive's one object.
    public struct Log: Codable, Sendable, Equatable {
        /// `1.2`.
        public var version: String
        public var creator: Creator
        public var entries: [Entry]
        public var comment: String?

        public init(version: String = "1.2", creator: Creator = .jewzruxin, entries: [Entry] = [], comment: String? = nil) {
            self.version = version
            self.creator = creator
            self.entries = entries
            self.comment = comment
        }
    }

    /// The program that wrote the archive.
    public struct Creator: Codable, Sendable, Equatable {
        public var name: String
        public var version: String

        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }

        /// This toolkit.
        public static let jewzruxin = Creator(name: "Jewzruxin", version: "0.1")
    }

    /// A `name`/`value` pair: a header, a query parameter, a form field.
    public struct NameValue: Codable, Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }
}
