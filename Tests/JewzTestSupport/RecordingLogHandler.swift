import JewzLocking
import Logging

/// A log handler that keeps every line (the message and its metadata), for tests that check
/// what was logged, and what was not.
public struct RecordingLogHandler: LogHandler {
    let lines: Recorded
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    /// The lines logged through the handlers that share it.
    public final class Recorded: Sendable {
        let lines = Mutex<[String]>([])

        public init() {}

        /// Every line so far.
        public var all: [String] { lines.withLock { $0 } }
    }

    public init(lines: Recorded) {
        self.lines = lines
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        lines.lines.withLock { $0.append("\(event.message) \(merged)") }
    }
}
