import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz` in a shell pipeline, as curl and httpie are used: a reader that goes away, an output
/// that cannot be written, a body redirected into a file, an upload from a process
/// substitution — each run by bash through the built binary.
@Suite struct PipelineCommandTests {
    /// Runs `script` in bash with `$JEWZ` naming the built binary.
    private func shell(_ script: String, timeLimit: Duration = .seconds(60)) async throws -> JewzRun {
        try await runJewz(
            ["-c", script], environment: ["JEWZ": jewzExecutable.path], timeLimit: timeLimit, executable: URL(fileURLWithPath: "/bin/bash"))
    }

    @Test(arguments: ["/bytes/8000000", "/ndjson?count=1000&interval=50"])
    func aReaderThatGoesAwayEndsJewzQuietly(_ path: String) async throws {
        let sandbox = try await Sandbox.start()
        let started = ContinuousClock.now
        let run = try await shell(#""$JEWZ" -S "\#(sandbox.url(path))" | head -c 1; echo " ${PIPESTATUS[0]}""#)
        // 141: the shell's word for a process that SIGPIPE ended, as it ends cat or curl's neighbours.
        #expect(run.output.hasSuffix(" 141\n"), "\(run.output) \(run.error)")
        #expect(run.error.isEmpty, "no trap, no message: \(run.error)")
        // The streamed body would take 50 s to the end: jewz stopped at the first write that failed.
        #expect(ContinuousClock.now - started < .seconds(30))
        try await sandbox.shutdown()
    }

    @Test func anOutputThatCannotBeWrittenSaysSoAndExits23() async throws {
        let sandbox = try await Sandbox.start()
        let run = try await shell(#""$JEWZ" "\#(sandbox.url("/bytes/100000"))" > /dev/full; echo "status $?""#)
        #expect(run.output == "status 23\n", "\(run.error)")
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("jewz: cannot write the output: No space left on device"), "\(run.error)")
        try await sandbox.shutdown()
    }

    @Test func aRedirectedBodyIsTheServersBytesExactly() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-pipe")
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = directory.appendingPathComponent("bytes"), text = directory.appendingPathComponent("hello")
        let run = try await shell(
            #""$JEWZ" "\#(sandbox.url("/bytes/70000"))" > "\#(binary.path)" && "$JEWZ" "\#(sandbox.url("/hello/"))" > "\#(text.path)""#)
        #expect(run.status == 0, "\(run.error)")
        #expect(try Data(contentsOf: binary) == Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0) }))
        #expect(try Data(contentsOf: text) == Data("Hello World".utf8))
        try await sandbox.shutdown()
    }

    @Test func anUploadFromAProcessSubstitutionGoesChunked() async throws {
        let sandbox = try await Sandbox.start()
        let run = try await shell(#""$JEWZ" --print b --upload <(head -c 300000 /dev/zero | tr '\0' a) PUT "\#(sandbox.url("/inspect"))""#)
        #expect(run.status == 0, "\(run.error)")
        let inspection = try Inspection(data: Data(run.output.utf8))
        #expect(inspection.method == "PUT")
        #expect(inspection.bodyLength == 300_000)
        #expect(inspection.values("Transfer-Encoding") == ["chunked"])
        #expect(inspection.values("Content-Length").isEmpty)

        // A regular file keeps its length.
        let file = try makeScratchDirectory(prefix: "jewz-pipe").appendingPathComponent("body.txt")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try Data(repeating: 0x61, count: 1000).write(to: file)
        let regular = try await runJewz(["--print", "b", "--upload", file.path, "PUT", sandbox.url("/inspect")])
        #expect(try Inspection(data: Data(regular.output.utf8)).values("Content-Length") == ["1000"], "\(regular.error)")
        try await sandbox.shutdown()
    }
}
