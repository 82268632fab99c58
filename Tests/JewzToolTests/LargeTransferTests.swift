import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// Large bodies through `jewz` in each direction, with the child's peak memory as the kernel
/// counted it: they must stream, never be held. 256 MiB by default, so that holding the body
/// would break the 100 MiB bound while the suite stays quick; `JEWZ_LARGE_TRANSFER_BYTES=1073741824`
/// runs the full gibibyte.
@Suite struct LargeTransferTests {
    static let size = ProcessInfo.processInfo.environment["JEWZ_LARGE_TRANSFER_BYTES"].flatMap { Int64($0) } ?? 256 << 20
    static let memoryLimit = (100 << 20) * SanitizerBuild.memoryFactor

    /// The peak `jewz` reported for itself.
    static func peak(in standardError: String) -> Int? {
        standardError.split(separator: "\n").first { $0.hasPrefix("jewz: peak resident memory ") }
            .flatMap { Int($0.split(separator: " ")[4]) }
    }

    /// Plain, and through two network middlewares: `--print H` puts the request printer in the
    /// path, `--log` the logger (#37: a middleware that does not touch the body holds none of it).
    @Test(arguments: [[], ["--print", "H", "--log"]])
    func aLargeDownloadStaysUnder100MiB(middleware: [String]) async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-large")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("download")
        let result = try await runJewz(
            (middleware.isEmpty ? ["--print", "h"] : middleware) + [sandbox.url("/download/\(Self.size)"), "--output", file.path],
            environment: ["JEWZ_REPORT_PEAK_MEMORY": "1"])
        try await sandbox.shutdown()
        #expect(result.status == 0, "\(result.error)")
        if !middleware.isEmpty {
            #expect(result.output.hasPrefix("GET /download/"), "the printer ran: \(result.output)")
            #expect(result.messages.contains { $0.hasPrefix("jewz: ← 200 GET ") }, "the logger ran: \(result.error)")
        }
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber
        #expect(size?.int64Value == Self.size)
        let peak = try #require(Self.peak(in: result.error))
        #expect(peak < Self.memoryLimit, "peak RSS \(peak >> 20) MiB")
    }

    @Test(arguments: [false, true])
    func aLargeUploadStaysUnder100MiB(asMultipart: Bool) async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-large")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("upload")
        // A sparse file: the full size on the wire, nothing on disk.
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(Self.size))
        try handle.close()
        let arguments = asMultipart ? ["name=large", "file@\(file.path)"] : ["--upload", file.path]
        let result = try await runJewz(
            ["--print", "b", "POST", sandbox.url("/sink")] + arguments, environment: ["JEWZ_REPORT_PEAK_MEMORY": "1"])
        try await sandbox.shutdown()
        #expect(result.status == 0, "\(result.error)")
        let report = try JSONDecoder().decode(SinkReport.self, from: Data(result.output.utf8))
        if asMultipart {
            // The file plus the part headers and boundaries.
            #expect(report.length > Self.size)
            #expect(report.contentType.hasPrefix("multipart/form-data; boundary="))
        } else {
            #expect(report.length == Self.size)
        }
        let peak = try #require(Self.peak(in: result.error))
        #expect(peak < Self.memoryLimit, "peak RSS \(peak >> 20) MiB")
    }
}

