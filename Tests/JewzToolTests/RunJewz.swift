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

/// The test process's environment without Swift's crash backtracer: a crashing `jewz` would
/// start `swift-backtrace`, which keeps the output pipes open for seconds while it symbolicates,
/// and forever under ASan (which aborts the runtime's memory server it reads from). The runtime
/// still prints the crash's message, and the test sees the signal.
var childEnvironment: [String: String] {
    ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
}

/// Whether a watchdog of ``killing(_:after:)`` killed its process.
final class KillRecord: Sendable {
    private let fired = Atomic(false)

    var killed: Bool { fired.load(ordering: .acquiring) }

    fileprivate func record() { fired.store(true, ordering: .releasing) }
}

/// Kills `process` once `timeLimit` has passed, unless the returned work item is cancelled
/// first; the record says whether it came to that.
func killing(_ process: ChildProcess, after timeLimit: Duration) -> (watchdog: DispatchWorkItem, record: KillRecord) {
    let record = KillRecord()
    let watchdog = DispatchWorkItem {
        record.record()
        process.send(SIGKILL)
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
        let process = try ChildProcess.spawn(
            jewzExecutable.path, arguments: arguments, environment: childEnvironment.merging(environment) { $1 },
            directory: directory?.path, input: Data((input ?? "").utf8))
        let (watchdog, record) = killing(process, after: timeLimit)
        // Drain stderr on another thread while stdout is read here, so neither pipe can fill
        // up and stall the child.
        let errorData = Mutex(Data())
        let drained = DispatchGroup()
        DispatchQueue.global().async(group: drained) {
            let data = process.standardError?.readDataToEndOfFile() ?? Data()
            errorData.withLock { $0 = data }
        }
        let out = process.standardOutput.readDataToEndOfFile()
        drained.wait()
        let termination = process.waitForExit()
        watchdog.cancel()
        return JewzRun(
            status: termination.exitStatus ?? -1, signal: termination.signal, output: String(decoding: out, as: UTF8.self),
            error: String(decoding: errorData.withLock { $0 }, as: UTF8.self), timedOut: record.killed)
    }
}

/// A `jewz serve` running in the background, for tests that need the binary as a server.
final class ServingJewz: Sendable {
    private let process: ChildProcess
    /// The URL its first line announced (`https://127.0.0.1:PORT`).
    let baseURL: String

    /// Starts `jewz serve` with `arguments` and waits for the line that says where it listens.
    ///
    /// - Throws: when the process cannot start or ends before announcing itself.
    static func start(_ arguments: [String]) async throws -> ServingJewz {
        try await runBlocking {
            let process = try ChildProcess.spawn(
                jewzExecutable.path, arguments: ["serve"] + arguments, environment: childEnvironment)
            try process.standardInput?.close()
            // Whatever the server writes is read and dropped, so a full pipe never stalls it.
            DispatchQueue.global().async { _ = process.standardError?.readDataToEndOfFile() }
            let output = process.standardOutput
            // The announcement is one unbuffered line: "Sandbox listening on URL (try …)".
            var line = Data()
            while let byte = try output.read(upToCount: 1), let first = byte.first, first != 0x0A {
                line.append(first)
            }
            let words = String(decoding: line, as: UTF8.self).split(separator: " ")
            guard words.count > 3, words[0] == "Sandbox" else {
                process.send(SIGTERM)
                _ = process.waitForExit()
                throw CocoaError(.fileReadCorruptFile)
            }
            DispatchQueue.global().async { _ = output.readDataToEndOfFile() }
            return ServingJewz(process: process, baseURL: String(words[3]))
        }
    }

    private init(process: ChildProcess, baseURL: String) {
        self.process = process
        self.baseURL = baseURL
    }

    /// Ends the server; it is reaped on a Dispatch thread, off the test's.
    func stop() {
        process.send(SIGTERM)
        DispatchQueue.global().async { [process] in _ = process.waitForExit() }
    }
}
