import ArgumentParser
import Foundation
import Jewzruxin
import JewzSandbox

/// `jewz tour`: starts the Sandbox in-process and walks through the toolkit, printing for each
/// step the Swift code that does it and what came back. Exits 1 if any step goes wrong.
struct TourCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour", abstract: "A guided tour of Jewzruxin against an in-process Sandbox.",
        discussion: """
            jewz tour            every step
            jewz tour --list     the steps' numbers and titles
            jewz tour 12         step 12 alone; jewz tour cache: the steps whose title mentions "cache"
            """)

    @Flag(help: "List the steps, a number and a title a line, and run none.")
    var list = false

    @Argument(help: "A step's number, or words its title contains (case-insensitive): run only those steps.")
    var step: [String] = []

    func run() async throws {
        let sandbox = try await Sandbox.start()
        let all = TourStep.all(sandbox)
        if list {
            try await sandbox.shutdown()
            for (number, step) in all.enumerated() { printLine("\(number + 1). \(step.title)") }
            return
        }
        let chosen = try choose(from: all)
        guard !chosen.isEmpty else {
            try await sandbox.shutdown()
            throw ValidationError("No step's title contains \"\(step.joined(separator: " "))\"; jewz tour --list shows them.")
        }
        printLine("Jewzruxin tour — the Sandbox is listening on \(sandbox.baseURL)\n")
        var failed: [String] = []
        let steps = chosen.map(\.step)
        for (number, step) in chosen {
            printLine("\(number). \(step.title)")
            for line in step.code.split(separator: "\n", omittingEmptySubsequences: false) {
                printLine("     \(line)")
            }
            do {
                let outcome = try await step.run()
                printLine("   → \(outcome.shown)")
                if outcome.passed {
                    printLine("   ✓\n")
                } else {
                    printLine("   ✗ expected \(outcome.expected)\n")
                    failed.append(step.title)
                }
            } catch {
                printLine("   ✗ threw \(error)\n")
                failed.append(step.title)
            }
        }
        try await sandbox.shutdown()
        if failed.isEmpty {
            printLine(steps.count == 1 ? "The step gave the expected result." : "All \(steps.count) steps gave the expected result.")
        } else {
            printLine("\(failed.count) of \(steps.count) steps went wrong: \(failed.joined(separator: "; "))")
            throw ExitCode.failure
        }
    }
}

extension TourCommand {
    /// The steps asked for, with their numbers in the whole tour: all, the one numbered, or
    /// those whose title contains the words.
    private func choose(from all: [TourStep]) throws -> [(number: Int, step: TourStep)] {
        let numbered = all.enumerated().map { (number: $0.offset + 1, step: $0.element) }
        guard !step.isEmpty else { return numbered }
        if step.count == 1, let number = Int(step[0]) {
            guard numbered.indices.contains(number - 1) else {
                throw ValidationError("The tour has steps 1 to \(all.count); jewz tour --list shows them.")
            }
            return [numbered[number - 1]]
        }
        let words = step.joined(separator: " ")
        return numbered.filter { $0.step.title.range(of: words, options: .caseInsensitive) != nil }
    }
}

/// One step of the tour: what it shows, the code that does it, and a check of the result.
struct TourStep: Sendable {
    struct Outcome {
        var shown: String
        var expected: String
        var passed: Bool

        init(_ shown: String, expected: String, passed: Bool? = nil) {
            self.shown = shown
            self.expected = expected
            self.passed = passed ?? (shown == expected)
        }
    }

    var title: String
    var code: String
    var run: @Sendable () async throws -> Outcome

    /// The outcome of `work` when it must fail with `code`, shown as `HTTPError.<code>`.
    static func failing(with code: HTTPError.Code, _ work: () async throws -> Void) async throws -> Outcome {
        let expected = "HTTPError.\(code)"
        do {
            try await work()
            return Outcome("no error", expected: expected)
        } catch let error as HTTPError {
            return Outcome("HTTPError.\(error.code)", expected: expected)
        }
    }
}
