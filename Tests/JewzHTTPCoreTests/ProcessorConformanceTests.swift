import Foundation
import JewzTestSupport
import Testing

/// A processor whose method name is misspelt must not compile (#37): both protocols have no
/// default implementation. Checked by type-checking two snippets against the modules this test
/// was built with: the misspelt one fails, the correct one passes (so that a broken setup
/// cannot pass for a refusal).
@Suite struct ProcessorConformanceTests {
    @Test(arguments: [
        ("HTTPResponseProcessor", "func proces(_ response: inout HTTPResponse) throws {}", "func process(_ response: inout HTTPResponse) throws {}"),
        ("HTTPRequestProcessor", "func prepares(_ request: inout HTTPRequest) throws {}", "func prepare(_ request: inout HTTPRequest) throws {}"),
        ("HTTPProcessor", "func prepare(_ request: inout HTTPRequest) throws {}", "func prepare(_ request: inout HTTPRequest) throws {}\n    func process(_ response: inout HTTPResponse) throws {}"),
    ])
    func aMisspeltProcessorMethodDoesNotCompile(protocol name: String, misspelt: String, correct: String) async throws {
        let snippet = { (body: String) in "import JewzHTTPCore\nstruct Mine: \(name) {\n    \(body)\n}\n" }
        let wrong = try await typecheck(snippet(misspelt))
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("does not conform to protocol"), "\(wrong.output)")
        let right = try await typecheck(snippet(correct))
        #expect(right.status == 0, "\(right.output)")
    }

    /// `swiftc -typecheck` of `source` against the build this test runs from.
    private func typecheck(_ source: String) async throws -> (status: Int32, output: String) {
        let directory = try makeScratchDirectory(prefix: "jewz-typecheck")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Snippet.swift")
        try Data(source.utf8).write(to: file)
        let build = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let compiler = try #require(Self.compiler, "swiftc is not on PATH")
        let arguments = ["-typecheck", "-I", build.appendingPathComponent("Modules").path, file.path]
            + Self.moduleMaps(build: build).flatMap { ["-Xcc", "-fmodule-map-file=\($0)"] }
        return try await runBlocking {
            let process = try ChildProcess.spawn(
                compiler, arguments: arguments, environment: ProcessInfo.processInfo.environment, errorStream: .mergedIntoOutput)
            let output = process.standardOutput.readDataToEndOfFile()
            return (process.waitForExit().exitStatus ?? -1, String(decoding: output, as: UTF8.self))
        }
    }

    /// The C modules' maps SwiftPM gives the compiler: generated beside the build's targets, or
    /// shipped in the dependencies' `include` folders.
    private static func moduleMaps(build: URL) -> [String] {
        let files = FileManager.default
        let generated = ((try? files.contentsOfDirectory(atPath: build.path)) ?? []).filter { $0.hasSuffix(".build") }
            .map { build.appendingPathComponent($0).appendingPathComponent("module.modulemap").path }
            .filter { files.fileExists(atPath: $0) }
        let checkouts = build.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("checkouts")
        let shipped = (files.enumerator(atPath: checkouts.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix("include/module.modulemap") }
            .map { checkouts.appendingPathComponent($0).path }
        return generated + shipped
    }

    /// The Swift compiler this suite's toolchain runs: the first `swiftc` on `PATH`.
    private static var compiler: String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/swiftc" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
