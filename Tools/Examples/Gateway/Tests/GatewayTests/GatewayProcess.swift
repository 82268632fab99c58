import Foundation
import Subprocess
import Synchronization
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// The built gateway, run as a program as a user runs it, with its settings in a JSON file
/// (`GATEWAY_CONFIG`) and the environment.
struct GatewayProcess: Sendable {
    /// Where it listens: `http://127.0.0.1:PORT`.
    let url: String
    /// Its JSON file, which the test may change while it runs.
    let configFile: URL
    fileprivate let sendSIGTERM: @Sendable () throws -> Void

    /// Sends it SIGTERM, as a service manager does to stop it.
    func terminate() throws {
        try sendSIGTERM()
    }

    /// Writes a new JSON file; the gateway sees it at its next poll.
    func changeConfiguration(_ json: String) throws {
        try Data(json.utf8).write(to: configFile)
        // The file provider tells a change by the modification time, which may not move within
        // the second the first version was written in.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: configFile.path)
    }
}

/// How a run of the gateway ended.
struct GatewayRun {
    var status: TerminationStatus
    /// What it logged, for a failing test to show.
    var log: String
}

/// Runs the gateway with `json` as its file and `environment` over the test's, calls `body`
/// once it listens, sends SIGTERM if `body` did not, and returns how it ended. A gateway still
/// running 30 s after SIGTERM is killed (its status says so).
func runGateway(
    json: String, environment: [String: String] = [:], _ body: @Sendable (GatewayProcess) async throws -> Void
) async throws -> GatewayRun {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-\(UUID().uuidString).json")
    try Data(json.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }

    var variables: [Environment.Key: String?] = ["GATEWAY_CONFIG": file.path, "SWIFT_BACKTRACE": "enable=no"]
    for (key, value) in environment { variables[Environment.Key(stringLiteral: key)] = value }
    let result = try await run(
        .path(FilePath(gatewayExecutable.path)), environment: .inherit.updating(variables),
        input: .none, output: .sequence, error: .sequence
    ) { execution in
        let log = Locked("")
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await line in execution.standardError.strings() {
                    log.withLock { if $0.utf8.count < 1 << 20 { $0 += line } }
                }
            }
            let (ports, found) = AsyncStream.makeStream(of: Int.self)
            group.addTask {
                defer { found.finish() }
                for try await line in execution.standardOutput.strings() where line.hasPrefix("listening on ") {
                    if let port = Int(line.dropFirst("listening on ".count).trimmingCharacters(in: .whitespacesAndNewlines)) {
                        found.yield(port)
                    }
                }
            }
            do {
                let port = try await withDeadline(.seconds(60)) {
                    for await port in ports { return port }
                    throw GatewayTestError.didNotListen
                }
                let gateway = GatewayProcess(url: "http://127.0.0.1:\(port)", configFile: file) { try execution.send(signal: .terminate) }
                try await body(gateway)
                try? execution.send(signal: .terminate)
                // Its output ends when it exits; one that does not within 30 s is killed, which
                // its termination status then shows.
                let watchdog = Task {
                    try await Task.sleep(for: .seconds(30))
                    try? execution.send(signal: .kill)
                }
                try await group.waitForAll()
                watchdog.cancel()
            } catch {
                try? execution.send(signal: .kill)
                throw GatewayTestError.failed(error, log: log.withLock { $0 })
            }
            return log.withLock { $0 }
        }
    }
    return GatewayRun(status: result.terminationStatus, log: result.closureResult)
}

enum GatewayTestError: Error, CustomStringConvertible {
    case didNotListen
    case failed(any Error, log: String)

    var description: String {
        switch self {
        case .didNotListen: "the gateway ended before it listened"
        case .failed(let error, let log): "\(error)\n--- the gateway's log ---\n\(log)"
        }
    }
}

/// The gateway program beside the test bundle, built with it.
let gatewayExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    .deletingLastPathComponent().appendingPathComponent("Gateway")
