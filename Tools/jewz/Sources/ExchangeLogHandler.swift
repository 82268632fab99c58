import Logging

/// Prints `--log`'s lines on standard error as jewz prints its messages, without the
/// timestamp and label a log handler usually adds.
struct ExchangeLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        printError(event.message.description)
    }
}
