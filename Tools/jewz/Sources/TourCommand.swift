import ArgumentParser
import Foundation
import Jewzruxin
import JewzSandbox

/// `jewz tour`: starts the Sandbox in-process and walks through the toolkit, printing for each
/// step the Swift code that does it and what came back. Exits 1 if any step goes wrong.
struct TourCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour", abstract: "A guided tour of Jewzruxin against an in-process Sandbox.")

    func run() async throws {
        let sandbox = try await Sandbox.start()
        print("Jewzruxin tour — the Sandbox is listening on \(sandbox.baseURL)\n")
        var failed: [String] = []
        let steps = TourStep.all(sandbox)
        for (number, step) in steps.enumerated() {
            print("\(number + 1). \(step.title)")
            for line in step.code.split(separator: "\n", omittingEmptySubsequences: false) {
                print("     \(line)")
            }
            do {
                let outcome = try await step.run()
                print("   → \(outcome.shown)")
                if outcome.passed {
                    print("   ✓\n")
                } else {
                    print("   ✗ expected \(outcome.expected)\n")
                    failed.append(step.title)
                }
            } catch {
                print("   ✗ threw \(error)\n")
                failed.append(step.title)
            }
        }
        try await sandbox.shutdown()
        if failed.isEmpty {
            print("All \(steps.count) steps gave the expected result.")
        } else {
            print("\(failed.count) of \(steps.count) steps went wrong: \(failed.joined(separator: "; "))")
            throw ExitCode.failure
        }
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
