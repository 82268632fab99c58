import Foundation

// `Soak`: a long mixed load against an in-process Sandbox, to show that a process that runs
// for long keeps flat memory and descriptors, accounts for every request and leaves no file
// behind. Exits 1 when one of those does not hold.
//
//     swift run -c release Soak --seconds 1800 --concurrency 64 [--seed N]
let options: SoakOptions
do {
    options = try SoakOptions(CommandLine.arguments.dropFirst())
} catch {
    FileHandle.standardError.write(Data("Soak: \(error)\nusage: Soak [--seconds N] [--concurrency C] [--seed S]\n".utf8))
    exit(1)
}
print("Soak: \(options.seconds) s at c=\(options.concurrency), seed \(options.seed)")
let report = try await SoakRun(options).run()
print(report.text)
exit(report.passed ? 0 : 1)
