import Foundation
import JewzTestSupport

/// What a person at a terminal saw during a run of `jewz`, and how it ended.
struct TerminalRun: Sendable {
    var status: Int32
    /// Everything the terminal showed, prompts included, with the terminal's CR LF line ends.
    var screen: String
    var timedOut: Bool
}

/// Runs the built `jewz` on a pseudo-terminal that is its controlling terminal; given an
/// `answer`, waits until the terminal shows `prompt`, then types it and Return, as a person would.
///
/// util-linux's `script` (in Debian's essential `bsdutils`) makes the terminal: `getpass` reads
/// from `/dev/tty`, which a pipe cannot stand in for. The answer is typed only once the prompt
/// is shown because `getpass` flushes input typed before it switched echo off.
func runJewzOnTerminal(
    _ arguments: [String], typing answer: String? = nil, after prompt: String = "", timeLimit: Duration = .seconds(60)
) async throws -> TerminalRun {
    try await runBlocking {
        let command = ([jewzExecutable.path] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
            .joined(separator: " ")
        let process = try ChildProcess.spawn(
            "/usr/bin/script", arguments: ["--quiet", "--return", "--command", command, "/dev/null"],
            environment: childEnvironment, errorStream: .mergedIntoOutput)
        let (watchdog, record) = killing(process, after: timeLimit)
        var screen = Data()
        var typed = false
        while true {
            let chunk = process.standardOutput.availableData
            if chunk.isEmpty { break }
            screen.append(chunk)
            if !typed, let answer, String(decoding: screen, as: UTF8.self).contains(prompt) {
                try? process.standardInput?.write(contentsOf: Data((answer + "\n").utf8))
                typed = true
            }
        }
        let termination = process.waitForExit()
        watchdog.cancel()
        try? process.standardInput?.close()
        return TerminalRun(
            status: termination.exitStatus ?? -1, screen: String(decoding: screen, as: UTF8.self),
            timedOut: record.killed)
    }
}
