import ArgumentParser
import Foundation
import JewzLocking
import Jewzruxin

/// `--download`, `--output` and `--continue`: the body streamed to a file, never to memory.
struct DownloadOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Save the body to a file in the current directory, named by the response's Content-Disposition or else the URL (name-1, name-2… when taken); a progress bar on a terminal.")
    var download = false

    @Option(name: .shortAndLong, help: "Save the response body to this file (streamed to disk, never held in memory).")
    var output: String?

    @Flag(name: [.customShort("c"), .customLong("continue")], help: "With --output: go on with a download that stopped, from where it stopped (when the server allows ranges and the file has not changed).")
    var resume = false

    /// The file the body went to, once it is there.
    final class Saved: Sendable {
        let path = Mutex<String?>(nil)
    }

    var savesToFile: Bool { download || output != nil }

    /// Where an interrupted download of `output` keeps what it needs to go on.
    static func resumeFile(for output: String) -> URL { URL(fileURLWithPath: output + ".jewz-resume") }

    /// The cycle's download: to a temporary file beside the destination, moved under its final
    /// name only when complete, so a failure never leaves half a file under that name.
    ///
    /// - Throws: `ValidationError` for `--continue` without `--output`.
    func makeDownload(saved: Saved) throws -> HTTPDownload? {
        if resume, output == nil { throw ValidationError("--continue goes on with the file --output names: give --output FILE.") }
        guard savesToFile else { return nil }
        var resumeData: DownloadResumeData?
        if resume, let output, let data = try? Data(contentsOf: Self.resumeFile(for: output)) {
            resumeData = try? JSONDecoder().decode(DownloadResumeData.self, from: data)
        }
        let output = self.output
        // Resumable only under a name the next run can find again (--output).
        var download = HTTPDownload(resumable: output != nil, resumingFrom: resumeData, didWriteData: ProgressBar.forTerminal()?.handler) {
            response, location in
            let destination = try output.map { URL(fileURLWithPath: $0) } ?? Self.freeName(for: response)
            try HTTPDownload.moving(to: destination).downloadFile(response, location)
            saved.path.withLock { $0 = output ?? destination.lastPathComponent }
        }
        download.temporaryDirectory = output.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return download
    }

    /// After the cycle ends: forgets a finished download's resume file, or keeps one for
    /// `--continue` and says so. Returns the message for standard error.
    func settle(_ cycle: HTTPCycle, failed: Bool) -> String? {
        guard let output else {
            if failed, let partial = cycle.resumeData?.partialFile { try? FileManager.default.removeItem(at: partial) }
            return nil
        }
        let resumeFile = Self.resumeFile(for: output)
        guard failed, let resumeData = cycle.resumeData, let encoded = try? JSONEncoder().encode(resumeData) else {
            try? FileManager.default.removeItem(at: resumeFile)
            return nil
        }
        guard (try? encoded.write(to: resumeFile)) != nil else { return nil }
        return "the download stopped after \(resumeData.bytesWritten) bytes; run the same command with --continue to go on from there"
    }

    /// The response's suggested name in the current directory, with `-1`, `-2`… before the
    /// extension when a file has it already (never replaced, as httpie does).
    private static func freeName(for response: HTTPResponse?) throws -> URL {
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let name = response?.suggestedFilename ?? "index.html"
        let stem = (name as NSString).deletingPathExtension
        let suffix = (name as NSString).pathExtension
        for attempt in 0..<10_000 {
            let candidate = attempt == 0 ? name : "\(stem)-\(attempt)" + (suffix.isEmpty ? "" : ".\(suffix)")
            let url = directory.appendingPathComponent(candidate)
            if !FileManager.default.fileExists(atPath: url.path) { return url }
        }
        throw ValidationError("every name from \(name) to \(stem)-9999 is taken in \(directory.path); give --output FILE")
    }
}
