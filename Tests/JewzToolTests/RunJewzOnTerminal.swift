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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--return", "--command", command, "/dev/null"]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = input
        try launch(process)
        let (watchdog, record) = killing(process, after: timeLimit)
        var screen = Data()
        var typed = false
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            screen.append(chunk)
            if !typed, let answer, String(decoding: screen, as: UTF8.self).contains(prompt) {
                input.fileHandleForWriting.write(Data((answer + "\n").utf8))
                typed = true
            }
        }
        process.waitUntilExit()
        watchdog.cancel()
        try input.fileHandleForWriting.close()
        return TerminalRun(
            status: process.terminationStatus, screen: String(decoding: screen, as: UTF8.self),
            timedOut: record.killed)
    }
}
