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
var jewzExecutable: URL { builtExecutable("jewz") }

/// A binary the package builds, beside the test bundle.
func builtExecutable(_ name: String) -> URL {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name)
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

/// Runs the built `jewz` binary (or `executable`) and collects its output.
///
/// A run longer than `timeLimit` is killed and reported as timed out, so a hang fails its
/// test rather than the suite.
func runJewz(
    _ arguments: [String], input: String? = nil, environment: [String: String] = [:], in directory: URL? = nil,
    timeLimit: Duration = .seconds(120), executable: URL = jewzExecutable
) async throws -> JewzRun {
    try await runBlocking {
        let process = try ChildProcess.spawn(
            executable.path, arguments: arguments, environment: childEnvironment.merging(environment) { $1 },
            directory: directory?.path, input: Data((input ?? "").utf8))
        let (watchdog, record) = killing(process, after: timeLimit)
        // Drain stderr on another thread while stdout is read here, so neither pipe can fill
        // up and stall the child.
        let errorData = Mutex(Data())
        let drained = DispatchGroup()
        onOwnThread(joining: drained) {
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

/// A `jewz serve` or `jewz proxy` running in the background, for tests that need the binary as
/// a server.
final class ServingJewz: Sendable {
    private let process: ChildProcess
    /// The URL its first line announced (`https://127.0.0.1:PORT`).
    let baseURL: String
    /// The URLs of the lines announced after the first (`jewz proxy --web`'s page).
    let laterURLs: [String]
    /// What it wrote on standard error, so far.
    private let errors = Mutex(Data())
    /// Left once standard error has reached its end.
    private let errorsDrained = DispatchGroup()

    /// Starts `jewz COMMAND` with `arguments` and waits for the `lines` lines that say where it
    /// listens (the first URL on each).
    ///
    /// - Throws: when the process cannot start or ends before announcing itself.
    static func start(
        _ arguments: [String], command: String = "serve", environment: [String: String] = [:], lines: Int = 1
    ) async throws -> ServingJewz {
        try await runBlocking {
            let process = try ChildProcess.spawn(
                jewzExecutable.path, arguments: [command] + arguments, environment: childEnvironment.merging(environment) { $1 })
            try process.standardInput?.close()
            let output = process.standardOutput
            // Each announcement is one unbuffered line: "Sandbox listening on URL (try …)",
            // "jewz proxy listening on URL, …".
            var urls: [String] = []
            for _ in 0..<lines {
                var line = Data()
                while let byte = try output.read(upToCount: 1), let first = byte.first, first != 0x0A {
                    line.append(first)
                }
                let words = String(decoding: line, as: UTF8.self).split(separator: " ")
                guard let url = words.first(where: { $0.contains("://") }) else {
                    process.send(SIGTERM)
                    _ = process.waitForExit()
                    throw CocoaError(.fileReadCorruptFile)
                }
                urls.append(String(url.trimmingCharacters(in: CharacterSet(charactersIn: ",/"))))
            }
            onOwnThread { _ = output.readDataToEndOfFile() }
            let serving = ServingJewz(process: process, urls: urls)
            // Whatever the server writes is read and kept as it comes, so a full pipe never
            // stalls it.
            onOwnThread(joining: serving.errorsDrained) {
                while let chunk = process.standardError?.availableData, !chunk.isEmpty {
                    serving.errors.withLock { $0.append(chunk) }
                }
            }
            return serving
        }
    }

    private init(process: ChildProcess, urls: [String]) {
        self.process = process
        baseURL = urls.first ?? ""
        laterURLs = Array(urls.dropFirst())
    }

    /// The lines it wrote on standard error so far.
    var errorLines: [String] {
        String(decoding: errors.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Ends the server; it is reaped on a Dispatch thread, off the test's.
    func stop() {
        process.send(SIGTERM)
        onOwnThread { [process] in _ = process.waitForExit() }
    }

    /// Ends the server with SIGTERM and waits for it and for the last of its standard error
    /// (off the test's thread).
    func stopAndWait() async throws {
        process.send(SIGTERM)
        _ = try await runBlocking { [process, errorsDrained] in
            errorsDrained.wait()
            return process.waitForExit()
        }
    }
}

/// A run of `curl` (a client no one here wrote) with `arguments`: its exit status and output.
func runCurl(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
    try await runBlocking {
        let process = try ChildProcess.spawn("/usr/bin/curl", arguments: ["--silent", "--show-error", "--max-time", "60"] + arguments, environment: childEnvironment)
        try process.standardInput?.close()
        let errorData = Mutex(Data())
        let drained = DispatchGroup()
        onOwnThread(joining: drained) { errorData.withLock { $0 = process.standardError?.readDataToEndOfFile() ?? Data() } }
        let output = process.standardOutput.readDataToEndOfFile()
        drained.wait()
        let status = process.waitForExit().exitStatus ?? -1
        return (status, String(decoding: output, as: UTF8.self), String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }
}
