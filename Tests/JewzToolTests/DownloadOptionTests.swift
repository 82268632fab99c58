import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `--download`, `--output`, `--continue` and the progress bar, run as a user runs them.
@Suite struct DownloadOptionTests {
    /// The Sandbox's `/download/N` bytes: byte i is i mod 251.
    private func pattern(_ count: Int) -> Data { Data((0..<count).map { UInt8($0 % 251) }) }

    @Test func aDownloadIsNamedByTheResponseAndNeverLeavesTheDirectory() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-download")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disposition = "Content-Disposition:attachment; filename=\"../evil.txt\""
        let query = try #require(disposition.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let url = sandbox.url("/echo/?content=hello&header=\(query)")
        let first = try await runJewz(["--download", url], in: directory)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.messages == ["jewz: saved the body to evil.txt"])
        let second = try await runJewz(["--download", url], in: directory)
        #expect(second.messages == ["jewz: saved the body to evil-1.txt"])
        #expect(try String(contentsOf: directory.appendingPathComponent("evil-1.txt"), encoding: .utf8) == "hello")
        #expect(!FileManager.default.fileExists(atPath: directory.deletingLastPathComponent().appendingPathComponent("evil.txt").path))

        let fromURL = try await runJewz(["-d", sandbox.url("/download/1000")], in: directory)
        #expect(fromURL.status == 0, "\(fromURL.error)")
        #expect(try Data(contentsOf: directory.appendingPathComponent("1000")) == pattern(1000))
        try await sandbox.shutdown()
    }

    @Test func aStoppedDownloadLeavesNoHalfFileAndContinues() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-continue")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("big.bin")
        // Closes after 200,000 bytes: the whole first time, and never the 100,000 left.
        let url = sandbox.url("/download/300000?drop=200000")
        let stopped = try await runJewz(["-o", file.path, url])
        #expect(stopped.status == 2)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(stopped.messages.last?.contains("run the same command with --continue") == true, "\(stopped.error)")
        #expect(FileManager.default.fileExists(atPath: file.path + ".jewz-resume"))

        let continued = try await runJewz(["-o", file.path, "--continue", url])
        #expect(continued.status == 0, "\(continued.error)")
        #expect(try Data(contentsOf: file) == pattern(300_000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["big.bin"])

        let alone = try await runJewz(["--continue", url])
        #expect(alone.status == 1)
        #expect(alone.error.contains("give --output FILE"))
        try await sandbox.shutdown()
    }

    @Test func theProgressBarShowsOnATerminalOnly() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-progress")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("progress.bin").path
        let url = sandbox.url("/download/5000000")
        let terminal = try await runJewzOnTerminal(["-o", file, url])
        #expect(terminal.status == 0, "\(terminal.screen)")
        #expect(terminal.screen.contains("4.8 MiB of 4.8 MiB (100%)"), "\(terminal.screen)")
        #expect(terminal.screen.contains("/s"))
        let piped = try await runJewz(["-o", file, url])
        #expect(piped.messages == ["jewz: saved the body to \(file)"])
        try await sandbox.shutdown()
    }
}
