import Foundation
import Jewzruxin
import JewzLocking
import JewzSandbox

/// A soak: workers that each run the mix (``SoakOperation``) until the time is up, a sampler
/// of the process's memory and descriptors, and the checks made at the end.
struct SoakRun {
    /// The most a measure may grow between the warm-up's end and the run's.
    static let allowedGrowth = 0.10

    let options: SoakOptions

    init(_ options: SoakOptions) {
        self.options = options
    }

    struct Report {
        var text: String
        var passed: Bool
    }

    func run() async throws -> Report {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-soak-\(getpid())")
        let downloads = scratch.appendingPathComponent("downloads")
        let cacheDirectory = scratch.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        let sandbox = try await Sandbox.start()
        var configuration = HTTPSession.Configuration()
        configuration.cache = try HTTPCache(directory: cacheDirectory, sizeLimit: 4 << 20)
        let session = HTTPSession(configuration: configuration)
        let context = SoakOperation.Context(session: session, sandbox: sandbox, downloads: downloads)
        let ledger = SoakLedger()
        let samples = Mutex<[ProcessUsage]>([])
        let started = ContinuousClock.now
        let deadline = started.advanced(by: .seconds(options.seconds))

        let sampler = Task {
            let interval = Duration.milliseconds(max(500, options.seconds * 1000 / 120))
            while !Task.isCancelled {
                samples.withLock { $0.append(ProcessUsage.now()) }
                try? await Task.sleep(for: interval)
            }
        }
        await withTaskGroup(of: Void.self) { workers in
            for worker in 0..<options.concurrency {
                let seed = options.seed &+ UInt64(worker)
                workers.addTask {
                    var generator = SeededGenerator(seed: seed)
                    while ContinuousClock.now < deadline {
                        let operation = SoakOperation.allCases[Int(generator.next() % UInt64(SoakOperation.allCases.count))]
                        ledger.start(operation)
                        let begun = ContinuousClock.now
                        do {
                            try await operation.perform(in: context, using: &generator)
                            ledger.end(operation, .completed, took: ContinuousClock.now - begun)
                        } catch {
                            ledger.end(operation, SoakLedger.outcome(of: error), took: ContinuousClock.now - begun)
                        }
                    }
                }
            }
        }
        sampler.cancel()
        _ = await sampler.result
        try await session.shutdown()
        try await sandbox.shutdown()

        let leftDownloads = (try? FileManager.default.contentsOfDirectory(atPath: downloads.path)) ?? []
        let leftScratch = (try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory.appendingPathComponent("tmp").path)) ?? []
        return report(ledger.snapshot, samples.withLock { $0 }, leftFiles: leftDownloads + leftScratch, elapsed: ContinuousClock.now - started)
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.1f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
    }

    private func report(_ counts: [SoakOperation: SoakLedger.Counts], _ samples: [ProcessUsage], leftFiles: [String], elapsed: Duration) -> Report {
        var lines: [String] = []
        var passed = true
        var total = SoakLedger.Counts()
        for operation in SoakOperation.allCases {
            let count = counts[operation] ?? SoakLedger.Counts()
            total.started += count.started
            total.completed += count.completed
            total.cancelled += count.cancelled
            total.failures.merge(count.failures, uniquingKeysWith: +)
            total.lost.merge(count.lost, uniquingKeysWith: +)
            let failed = count.failures.map { "\($0.key) ×\($0.value)" }.sorted().joined(separator: ", ")
            let lost = count.lost.map { "\($0.key) ×\($0.value)" }.sorted().joined(separator: ", ")
            lines.append(
                "\(operation.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)) \(count.started) started, "
                    + "\(Self.milliseconds(count.started > 0 ? count.duration / count.started : .zero)) each, \(count.completed) completed, "
                    + "\(count.cancelled) cancelled\(failed.isEmpty ? "" : ", failed: \(failed)")\(lost.isEmpty ? "" : ", LOST: \(lost)")")
        }
        let seconds = Double(elapsed.components.seconds)
        lines.append("all            \(total.started) started (\(Int(Double(total.started) / max(seconds, 1)))/s), \(total.ended) ended")
        // A typed error is accounted for, but against a Sandbox in the same process nothing has
        // a reason to fail: each one is a finding.
        let failures = total.failures.values.reduce(0, +)
        if total.started != total.ended || !total.lost.isEmpty || failures > 0 {
            passed = false
            lines.append("FAIL: \(total.started - total.ended) unaccounted for, \(total.lost.values.reduce(0, +)) lost, \(failures) failed")
        }
        // The first quarter, and at least the first minute (at most half the run): pools and the
        // allocator's arenas are still filling then, which a short run would count as growth.
        let warmUp = min(samples.count / 2, max(samples.count / 4, samples.count * 60 / max(options.seconds, 60)))
        let memory = Growth(samples.map { Double($0.residentBytes) }, warmUp: warmUp)
        let descriptors = Growth(samples.map { Double($0.openDescriptors) }, warmUp: warmUp)
        let mebibytes = { (bytes: Double) in String(format: "%.1f MiB", bytes / 1_048_576) }
        lines.append(
            "resident memory after warm-up \(mebibytes(memory.start)) → \(mebibytes(memory.end)) (\(String(format: "%+.1f%%", memory.ratio * 100))), "
                + "peak \(mebibytes(Double(samples.map(\.residentBytes).max() ?? 0))), \(samples.count) samples")
        lines.append("open descriptors after warm-up \(Int(descriptors.start)) → \(Int(descriptors.end)) (\(String(format: "%+.1f%%", descriptors.ratio * 100)))")
        if memory.ratio >= Self.allowedGrowth || descriptors.ratio >= Self.allowedGrowth {
            passed = false
            lines.append("FAIL: grew by \(Int(Self.allowedGrowth * 100))% or more after the warm-up")
        }
        if !leftFiles.isEmpty {
            passed = false
            lines.append("FAIL: files left behind: \(leftFiles.prefix(5).joined(separator: ", "))")
        }
        lines.append(passed ? "PASS" : "FAIL (seed \(options.seed))")
        return Report(text: lines.joined(separator: "\n"), passed: passed)
    }
}
