import ArgumentParser
import Foundation
import Jewzruxin

/// `--stream` and `--no-reconnect`: a body printed as it arrives, event streams resumed.
struct StreamOptions: ParsableArguments {
    @Flag(name: [.customShort("S"), .long], help: "Print the body as it arrives (as httpie's --stream): each line of a log or JSON lines, each Server-Sent Event of a text/event-stream, which is resumed with Last-Event-ID when it ends or drops, until the server answers 204 or you stop it.")
    var stream = false

    @Flag(help: "With --stream: stop when the event stream ends instead of reconnecting.")
    var noReconnect = false

    /// Checks that the options go together.
    ///
    /// - Throws: `ValidationError` for `--no-reconnect` without `--stream`, or `--stream` with a
    ///   download or `--offline`.
    func validate(savesToFile: Bool, offline: Bool) throws {
        if noReconnect, !stream { throw ValidationError("--no-reconnect goes with --stream.") }
        if stream, savesToFile || offline {
            throw ValidationError("--stream prints the body as it arrives; it does not go with --output, --download or --offline.")
        }
    }

    /// `event` as an event stream writes it: its type unless `message`, its ID when it has one,
    /// a `data:` line per line of its data, and the blank line that ends it.
    static func text(of event: ServerSentEvent) -> String {
        var lines: [String] = []
        if event.type != "message" { lines.append("event: \(event.type)") }
        if !event.id.isEmpty { lines.append("id: \(event.id)") }
        lines += event.data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
