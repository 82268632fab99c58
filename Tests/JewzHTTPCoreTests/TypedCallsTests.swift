import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// The session's three calls, each returning the body its own way: `send` whole in memory,
/// `stream` as it arrives, `download` in a file.
@Suite struct TypedCallsTests {
    @Test func sendReturnsTheWholeBodyInMemory() async throws {
        try await withSandbox { sandbox, session in
            let response = try await session.send(HTTPRequest(url: try #require(URL(string: sandbox.url("/download/300000")))))
            #expect(response.data == SandboxStreams.pattern(0..<300_000))
            #expect(response.body.data?.count == 300_000, "the body is bytes, not a stream to read")
        }
    }

    @Test func streamReturnsAtTheHeadAndHoldsTheCallUntilTheBodyIsRead() async throws {
        try await withSandbox { sandbox, session in
            let response = try await session.stream(HTTPRequest(url: try #require(URL(string: sandbox.url("/download/300000")))))
            #expect(response.statusCode == 200)
            #expect(response.headers["Content-Length"] == "300000")
            #expect(session.runningCalls.count == 1, "the call lasts while its body is unread")
            let body = try await response.body.collect(upTo: 1 << 20)
            #expect(body == SandboxStreams.pattern(0..<300_000))
            try await waitUntil { session.runningCalls.isEmpty }
        }
    }

    @Test func aStreamedFailingStatusThrowsWithItsBodyInMemory() async throws {
        try await withSandbox { sandbox, session in
            let error = await httpError { _ = try await session.stream(HTTPRequest(url: try #require(URL(string: sandbox.url("/status/404"))))) }
            #expect(error?.code == .statusCode)
            #expect(error?.response?.statusCode == 404)
            #expect(session.runningCalls.isEmpty)
        }
    }

    @Test func downloadWritesTheFileWhereItIsToldAndReturnsTheHead() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("body.bin")
        try Data("old".utf8).write(to: destination)
        try await withSandbox { sandbox, session in
            let saved = try await session.download(HTTPRequest(url: try #require(URL(string: sandbox.url("/download/1000000")))), to: destination)
            #expect(saved.statusCode == 200)
            #expect(saved.fileURL == destination)
            #expect(saved.headers["Content-Length"] == "1000000")
        }
        #expect(try Data(contentsOf: destination) == SandboxStreams.pattern(0..<1_000_000), "the old file is replaced")
        #expect(contents(of: directory) == ["body.bin"], "no temporary file is left beside it")
    }

    @Test func aFailedDownloadCarriesResumeDataThatASecondDownloadContinues() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("big.bin")
        let size: Int64 = 2_000_000
        try await withSandbox { sandbox, session in
            let cut = HTTPRequest(url: try #require(URL(string: sandbox.url("/download/\(size)?drop=700001&validator=etag"))))
            let error = await httpError { _ = try await session.download(cut, to: destination, options: .init(retryPolicy: .never)) }
            let resumeData = try #require(error?.resumeData)
            #expect(resumeData.bytesWritten > 0 && resumeData.bytesWritten <= 700_001)
            #expect(!FileManager.default.fileExists(atPath: destination.path), "nothing under the final name until complete")

            let progress = ProgressLog()
            let whole = HTTPRequest(url: try #require(URL(string: sandbox.url("/download/\(size)?validator=etag"))))
            let saved = try await session.download(whole, to: destination, resumingFrom: resumeData) { bytes, total, expected in
                progress.record(bytes, total, expected)
            }
            #expect(saved.statusCode == 206, "only the rest was asked for")
            #expect(progress.isConsistent(from: resumeData.bytesWritten))
        }
        #expect(try Data(contentsOf: destination) == SandboxStreams.pattern(0..<size))
        #expect(contents(of: directory) == ["big.bin"])
    }

    @Test func aDownloadsFailingStatusWritesNoFile() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("missing.bin")
        try await withSandbox { sandbox, session in
            let error = await httpError {
                _ = try await session.download(HTTPRequest(url: try #require(URL(string: sandbox.url("/status/404")))), to: destination)
            }
            #expect(error?.code == .statusCode)
            #expect(error?.resumeData == nil)
        }
        #expect(contents(of: directory).isEmpty)
    }
}
