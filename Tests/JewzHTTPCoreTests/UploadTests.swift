import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

@Suite struct UploadTests {
    @Test(arguments: TransportKind.allCases) func dataUploadsReportExactProgress(transport: TransportKind) async throws {
        let content = Data((0..<(1 << 20) + 123).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let progress = ProgressLog()
        try await withSandbox(transport: transport) { sandbox, session in
            let response = try await HTTPCycle.upload(
                sandbox.url("/sink"), source: .data(content), contentType: "application/x-test",
                didSendBodyData: { bytes, total, expected in progress.record(bytes, total, expected) }, session: session)
            let report = try JSONDecoder().decode(SinkReport.self, from: response.data)
            #expect(report.length == Int64(content.count))
            #expect(report.crc32 == SandboxStreams.crc32(of: content))
            #expect(report.contentType == "application/x-test")
        }
        #expect(progress.all.count > 1)
        #expect(progress.isConsistent())
        #expect(progress.all.last?.total == Int64(content.count))
        #expect(progress.all.allSatisfy { $0.expected == Int64(content.count) })
    }

    @Test(arguments: TransportKind.allCases) func fileUploadsStreamFromDiskWithProgress(transport: TransportKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-upload-\(UUID().uuidString)")
        let content = Data((0..<(5 << 20) + 1).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try content.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let progress = ProgressLog()
        try await withSandbox(transport: transport) { sandbox, session in
            let response = try await HTTPCycle.upload(
                sandbox.url("/sink/upload"), method: .put, source: .file(file),  // any path under /sink/
                didSendBodyData: { bytes, total, expected in progress.record(bytes, total, expected) }, session: session)
            let report = try JSONDecoder().decode(SinkReport.self, from: response.data)
            #expect(report.length == Int64(content.count))
            #expect(report.crc32 == SandboxStreams.crc32(of: content))
        }
        #expect(progress.all.count >= content.count / HTTPBodyChunks.chunkSize)
        #expect(progress.isConsistent())
        #expect(progress.all.last?.total == Int64(content.count))
        #expect(progress.all.first?.expected == Int64(content.count))
    }

    @Test(arguments: TransportKind.allCases) func theSeedsUploadFormsEchoTheBody(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let response = try await HTTPCycle.upload(sandbox.url("/dumpupload/"), source: .data(Data("Hello World".utf8)), session: session)
            #expect(response.text == "Hello World")
            let done = AsyncStream<String?>.makeStream()
            try HTTPCycle.upload(sandbox.url("/dumpupload/"), source: .data(Data("Hello World (FILE)".utf8)), session: session) { cycle, error in
                done.continuation.yield(error == nil ? cycle.response?.text : nil)
                done.continuation.finish()
            }
            var iterator = done.stream.makeAsyncIterator()
            #expect(await iterator.next() == "Hello World (FILE)")
        }
    }

    @Test(arguments: TransportKind.allCases) func aStreamOfUnknownLengthReportsNoExpectedTotal(transport: TransportKind) async throws {
        let progress = ProgressLog()
        try await withSandbox(transport: transport) { sandbox, session in
            let response = try await HTTPCycle.upload(
                sandbox.url("/sink"), source: oneShot("streamed body of unknown length"),
                didSendBodyData: { bytes, total, expected in progress.record(bytes, total, expected) }, session: session)
            let report = try JSONDecoder().decode(SinkReport.self, from: response.data)
            #expect(report.length == 31)
        }
        #expect(progress.all.last?.total == 31)
        #expect(progress.all.allSatisfy { $0.expected == nil })
    }

    @Test(arguments: TransportKind.allCases) func anUploadDroppedByTheServerFailsWithoutRetry(transport: TransportKind) async throws {
        let content = Data(count: 8 << 20)
        try await withSandbox(transport: transport) { sandbox, session in
            let error = await httpError {
                try await HTTPCycle.upload(sandbox.url("/sink?drop=1000000"), source: .data(content), session: session)
            }
            switch error?.code {
            case .connectionLost?, .transport?: break
            default: Issue.record("expected a lost connection, got \(String(describing: error))")
            }
        }
    }

    /// A file whose bytes the page cache does not hold is read where a read may wait, on NIO's
    /// thread pool, and arrives whole, its last short piece included: through the default
    /// transport's buffers and through the chunks other paths read.
    @Test func aFileNotInThePageCacheUploadsWhole() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-cold-\(UUID().uuidString)")
        let content = Data((0..<(2 << 20) + 77).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try content.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await evictFromPageCache(file)
        try await withSandbox { sandbox, session in
            let response = try await HTTPCycle.upload(sandbox.url("/sink/cold"), method: .put, source: .file(file), session: session)
            let report = try JSONDecoder().decode(SinkReport.self, from: response.data)
            #expect(report.length == Int64(content.count))
            #expect(report.crc32 == SandboxStreams.crc32(of: content))
        }
        try await evictFromPageCache(file)
        var read = Data()
        for try await chunk in FileChunks(url: file, chunkSize: 100_000) { read.append(chunk) }
        #expect(read == content)
    }

    /// Drops `file`'s pages from the page cache, until a read that may not wait finds them
    /// missing (else the test would not test the read that waits). The kernel may keep a page
    /// it is still finishing with, or one another core has just used: asked again, it drops it.
    private func evictFromPageCache(_ file: URL) async throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        fsync(handle.fileDescriptor)
        try await waitUntil(deadline: .seconds(30)) {
            posix_fadvise(handle.fileDescriptor, 0, 0, POSIX_FADV_DONTNEED)
            do {
                _ = try FileBytes.read(4096, from: handle.fileDescriptor, at: 0, waiting: false)
                return false
            } catch is FileBytes.WouldWait {
                return true
            } catch {
                // Another failure is no reason to ask again: it fails the test as it is.
                Issue.record(error)
                return true
            }
        }
    }
}
