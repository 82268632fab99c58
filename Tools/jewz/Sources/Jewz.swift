import ArgumentParser
import Foundation
import Jewzruxin
import Logging
import NIOCore

/// `jewz`: an httpie-style HTTP client over Jewzruxin, the Sandbox server, and a guided tour.
@main
struct Jewz: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jewz",
        abstract: "A command-line HTTP client built on Jewzruxin.",
        discussion: """
            jewz [METHOD] URL [ITEM ...]   send a request (items: Header:Value, name==query, name=value, name:=json)
            jewz auth login ISSUER --client ID   sign in to an OAuth 2.0 server (device code, or --browser); status, logout
            jewz expand TEMPLATE [VAR ...]  expand an RFC 6570 URI template (--jsonl: one per input line)
            jewz image URL [--cache DIR]    download an image through the image cache; print format, size, source (--json)
            jewz service PROFILE RESOURCE [VAR ...]  call a resource of a service profile or OpenAPI document (--list, --verify)
            jewz bench URL -n N -c C        time N GETs at concurrency C through the full HTTPCycle path (--json)
            jewz serve [--port N]           run the Sandbox server
            jewz proxy [--upstream URL]     a local proxy through Jewzruxin: --record/--replay HAR, --cache DIR, curl -x
            jewz tour [STEP] [--list]       walk through the toolkit against an in-process Sandbox (one step, or the list)

            Exit status: 0 for 2xx/3xx, 4 for 4xx, 5 for 5xx, 2 for network errors and timeouts, 1 for usage errors,
            3 when `jewz image` gets a body that is not an image, 23 when the output cannot be written (a full disk);
            a reader that goes away (jewz URL | head) ends jewz as SIGPIPE ends any tool, quietly.
            JEWZ_LOG_LEVEL=debug shows the library's log (requests, retries, failures) on standard error.
            """,
        version: release,
        subcommands: [RequestCommand.self, AuthCommand.self, ExpandCommand.self, ImageCommand.self, ServiceCommand.self, PinsCommand.self, BenchCommand.self, ServeCommand.self, ProxyCommand.self, WebSocketCommand.self, TourCommand.self],
        defaultSubcommand: RequestCommand.self)

    /// The toolkit's release, as a session's default `User-Agent` names it (`Jewzruxin/0.9.0`):
    /// one place says the version.
    static var release: String {
        let agent = HTTPSession.Configuration().additionalHeaders["User-Agent"] ?? ""
        return agent.split(separator: "/").last.map(String.init) ?? agent
    }

    /// Parses and runs, mapping every outcome to the documented exit status (ArgumentParser's
    /// own code for usage errors is 64; ours is 1).
    static func main() async {
        // The library logs failures at error level; jewz reports them in its own one-line
        // messages, so its log stays quiet unless JEWZ_LOG_LEVEL (trace…critical) asks.
        let level = ProcessInfo.processInfo.environment["JEWZ_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:))
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level ?? .critical
            return handler
        }
        PeakMemory.reportAtExitIfAsked()
        do {
            var command = try parseCommand(Array(CommandLine.arguments.dropFirst()))
            if command is RequestCommand {
                // One exchange at a time needs one event loop, and the cache's file work a
                // thread or two; NIO would start one of each per core, before the first byte.
                NIOSingletons.groupLoopCountSuggestion = 1
                NIOSingletons.blockingPoolThreadCountSuggestion = 2
            }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .success {
                printLine(fullMessage(for: error))
                Foundation.exit(0)
            }
            // One line of our own for the message (its control characters escaped), then
            // whatever usage text ArgumentParser has for this error.
            let message = message(for: error)
            let full = fullMessage(for: error)
            let usage = full.range(of: message).map { full[$0.upperBound...] }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            printError(message.isEmpty ? String(describing: error) : message)
            if !usage.isEmpty { StandardOutput.writeError(usage + "\n") }
            Foundation.exit(JewzExit.usage.rawValue)
        }
    }
}

extension Jewz {
    /// The command `arguments` ask for. A request — the default subcommand, named by no first
    /// word — is parsed by itself: parsed from the root, every subcommand's tree is built and
    /// the request's options are reflected over again, which costs a short run most of its
    /// start. Anything else, and a request that fails to parse, is parsed from the root, so
    /// that help, errors and usage read as the root's.
    static func parseCommand(_ arguments: [String]) throws -> any ParsableCommand {
        // Help and completion scripts come back as commands of their own: the root gives them.
        if let first = arguments.first, !subcommandNames.contains(first),
            let request = try? RequestCommand.parseAsRoot(arguments) as? RequestCommand
        {
            return request
        }
        return try parseAsRoot(arguments)
    }

    private static var subcommandNames: Set<String> {
        Set(configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases } + ["help"])
    }
}

/// The exit statuses `jewz` promises.
enum JewzExit: Int32 {
    case success = 0
    case usage = 1
    case network = 2
    case notAnImage = 3
    case clientError = 4
    case serverError = 5
    /// The output could not be written (a full disk), as curl's 23.
    case outputFailed = 23

    var code: ExitCode { ExitCode(rawValue) }
}

/// Writes one line to standard error: control characters in `message` (a server's or a user's
/// CR and LF among them) are escaped, so a message is always one line and never a terminal
/// command.
func printError(_ message: String) {
    StandardOutput.writeError("jewz: \(message.escapingControlCharacters)\n")
}
