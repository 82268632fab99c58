import Foundation
import JewzLocking
import JewzTestSupport
import struct Synchronization.Atomic
import Testing

/// How a run of the `jewz` binary ended.
struct JewzRun: Sendable {
    var status: Int32
    /// The signal that ended the process, if one did (a crash, or the time limit's kill).
    var signal: Int32?
    var output: String
    var error: String
    /// Whether the run outlived its time limit and was killed.
    var timedOut: Bool

    /// The peak resident memory `jewz` reported for itself under `JEWZ_REPORT_PEAK_MEMORY`.
    var peakMemory: Int? {
        error.split(separator: "\n").first { $0.hasPrefix("jewz: peak resident memory ") }
            .flatMap { Int($0.split(separator: " ")[4]) }
    }

    /// What the user reads on standard error, without the peak memory report.
    var messages: [Substring] {
        error.split(separator: "\n").filter { !$0.hasPrefix("jewz: peak resident memory ") }
    }
}

/// The built `jewz` binary: it sits beside the test bundle.
var jewzExecutable: URL {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("jewz")
}

/// Whether a watchdog of ``killing(_:after:)`` killed its process.
final class KillRecord: Sendable {
    private let fired = Atomic(false)

    var killed: Bool { fired.load(ordering: .acquiring) }

    fileprivate func record() { fired.store(true, ordering: .releasing) }
}

/// Kills `process` once `timeLimit` has passed, unless the returned work item is cancelled
/// first; the record says whether it came to that.
func killing(_ process: Process, after timeLimit: Duration) -> (watchdog: DispatchWorkItem, record: KillRecord) {
    let record = KillRecord()
    let watchdog = DispatchWorkItem {
        record.record()
        kill(process.processIdentifier, SIGKILL)
    }
    let (seconds, attoseconds) = timeLimit.components
    DispatchQueue.global().asyncAfter(
        deadline: .now() + .milliseconds(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)), execute: watchdog)
    return (watchdog, record)
}

/// Runs the built `jewz` binary and collects its output.
///
/// A run longer than `timeLimit` is killed and reported as timed out, so a hang fails its
/// test rather than the suite.
func runJewz(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:], in directory: URL? = nil,
    timeLimit: Duration = .seconds(120)
) async throws -> JewzRun {
    try await runBlocking {
        let process = Process()
        if let directory {
            // `env --chdir` changes the child's directory: Foundation's `currentDirectoryURL`
            // changes the whole test process's around the launch, which races every other
            // launch on the suite's threads (it crashed one).
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["--chdir=\(directory.path)", jewzExecutable.path] + arguments
        } else {
            process.executableURL = jewzExecutable
            process.arguments = arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        let error = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = inputPipe
        try launch(process)
        let (watchdog, record) = killing(process, after: timeLimit)
        inputPipe.fileHandleForWriting.write(Data((input ?? "").utf8))
        try inputPipe.fileHandleForWriting.close()
        // Drain stderr on another thread while stdout is read here, so neither pipe can fill
        // up and stall the child.
        let errorData = Mutex(Data())
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = error.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            drained.signal()
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        watchdog.cancel()
        let signalled = process.terminationReason == .uncaughtSignal
        return JewzRun(
            status: signalled ? -1 : process.terminationStatus,
            signal: signalled ? process.terminationStatus : nil,
            output: String(decoding: out, as: UTF8.self),
            error: String(decoding: errorData.withLock { $0 }, as: UTF8.self),
            timedOut: record.killed)
    }
}

/// A `jewz serve` running in the background, for tests that need the binary as a server.
final class ServingJewz: Sendable {
    private let process: Process
    /// The URL its first line announced (`https://127.0.0.1:PORT`).
    let baseURL: String

    /// Starts `jewz serve` with `arguments` and waits for the line that says where it listens.
    ///
    /// - Throws: when the process cannot start or ends before announcing itself.
    static func start(_ arguments: [String]) async throws -> ServingJewz {
        try await runBlocking {
            let process = Process()
            process.executableURL = jewzExecutable
            process.arguments = ["serve"] + arguments
            let output = Pipe()
            process.standardOutput = output
            try launch(process)
            // The announcement is one unbuffered line: "Sandbox listening on URL (try …)".
            var line = Data()
            while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
                line.append(first)
            }
            let words = String(decoding: line, as: UTF8.self).split(separator: " ")
            guard words.count > 3, words[0] == "Sandbox" else {
                process.terminate()
                throw CocoaError(.fileReadCorruptFile)
            }
            return ServingJewz(process: process, baseURL: String(words[3]))
        }
    }

    private init(process: Process, baseURL: String) {
        self.process = process
        self.baseURL = baseURL
    }

    func stop() {
        process.terminate()
    }
}
