import Foundation
import JewzHTTPCore
import JewzMocking
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// A download that copies the finished file to `kept` (in the scratch directory, so the
/// temporary file's removal can be checked separately).
func keepingDownload(
    in directory: URL, kept: URL, resumable: Bool = false, resumingFrom resumeData: DownloadResumeData? = nil,
    progress: ProgressLog? = nil, onWrite: (@Sendable (Int64) -> Void)? = nil
) -> HTTPDownload {
    var download = HTTPDownload(
        resumable: resumable, resumingFrom: resumeData,
        didWriteData: { bytes, total, expected in
            progress?.record(bytes, total, expected)
            onWrite?(total)
        },
        downloadFile: { _, location in try FileManager.default.copyItem(at: location, to: kept) })
    download.temporaryDirectory = directory
    return download
}

@Suite struct DownloadTests {
    @Test(arguments: TransportKind.allCases) func aDownloadStreamsToAFileAndReportsExactProgress(transport: TransportKind) async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("kept")
        let size: Int64 = (3 << 20) + 17
        let progress = ProgressLog()
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/\(size)"), method: .get, session: session)
            cycle.delivery = .download(keepingDownload(in: directory, kept: kept, progress: progress))
            let response = try await cycle.start()
            #expect(response.data.isEmpty)
            #expect(response.statusCode == 200)
        }
        #expect(try Data(contentsOf: kept) == SandboxStreams.pattern(0..<size))
        #expect(contents(of: directory) == ["kept"], "the temporary file is removed after the handler")
        #expect(progress.isConsistent())
        #expect(progress.all.last?.total == size)
        #expect(progress.all.allSatisfy { $0.expected == size })
    }

    @Test func movingReplacesAnExistingDestination() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file")
        try Data("old content".utf8).write(to: destination)
        try await withSandbox { sandbox, session in
            for size in [1000, 10] {
                let cycle = try HTTPCycle(sandbox.url("/download/\(size)"), method: .get, session: session)
                var download = HTTPDownload.moving(to: destination)
                download.temporaryDirectory = directory
                cycle.delivery = .download(download)
                try await cycle.start()
                #expect(try Data(contentsOf: destination) == SandboxStreams.pattern(0..<Int64(size)))
            }
        }
        #expect(contents(of: directory) == ["file"])
    }

    /// A handler that throws fails the cycle with its own code, its error underneath, and the
    /// temporary file gone.
    @Test func aThrowingHandlerIsADownloadHandlerFailure() async throws {
        struct Refused: Error {}
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/1000"), method: .get, session: session)
            var download = HTTPDownload(downloadFile: { _, _ in throw Refused() })
            download.temporaryDirectory = directory
            cycle.delivery = .download(download)
            let error = await httpError { try await cycle.start() }
            #expect(error?.code == .downloadHandler, "\(String(describing: error))")
            #expect(error?.underlying is Refused)
        }
        #expect(contents(of: directory).isEmpty)
    }

    @Test func theCompletionFormHandsOverTheFileBeforeCompletion() async throws {
        try await withSandbox { sandbox, session in
            let order = Mutex<[String]>([])
            let done = AsyncStream<Void>.makeStream()
            try HTTPCycle.download(
                sandbox.url("/echo?content=helloworld"), session: session,
                downloadFile: { _, location in
                    let text = try String(contentsOf: location, encoding: .utf8)
                    order.withLock { $0.append("file: \(text)") }
                },
                completion: { _, error in
                    order.withLock { $0.append("completion: \(error.map { "\($0)" } ?? "ok")") }
                    done.continuation.finish()
                })
            for await _ in done.stream {}
            #expect(order.withLock { $0 } == ["file: helloworld", "completion: ok"])
        }
    }

    @Test(arguments: TransportKind.allCases) func withoutContentLengthTheExpectedSizeIsUnknown(transport: TransportKind) async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("kept")
        let progress = ProgressLog()
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/300000?chunked=1"), method: .get, session: session)
            cycle.delivery = .download(keepingDownload(in: directory, kept: kept, progress: progress))
            try await cycle.start()
        }
        #expect(try Data(contentsOf: kept) == SandboxStreams.pattern(0..<300_000))
        #expect(progress.all.last?.total == 300_000)
        #expect(progress.all.allSatisfy { $0.expected == nil })
    }

    @Test(arguments: TransportKind.allCases) func aFailingStatusKeepsItsBodyInMemoryAndWritesNoFile(transport: TransportKind) async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/status/404"), method: .get, session: session)
            var download = HTTPDownload { _, _ in Issue.record("no file for a 404") }
            download.temporaryDirectory = directory
            cycle.delivery = .download(download)
            guard let error = await httpError({ try await cycle.start() }), error.code == .statusCode, error.statusCode == 404 else {
                Issue.record("expected status 404")
                return
            }
            #expect(cycle.response?.text == "status 404")
        }
        #expect(contents(of: directory).isEmpty)
    }

    @Test(arguments: TransportKind.allCases) func aDroppedDownloadLeavesNoPartialFileUnlessResumable(transport: TransportKind) async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/2000000?drop=700000"), method: .get, session: session)
            cycle.delivery = .download(keepingDownload(in: directory, kept: directory.appendingPathComponent("kept")))
            guard let error = await httpError({ try await cycle.start() }), error.code == .connectionLost else {
                Issue.record("expected a lost connection")
                return
            }
            #expect(cycle.resumeData == nil)
        }
        #expect(contents(of: directory).isEmpty)
    }

    @Test(arguments: ["etag", "date"])
    func aDroppedDownloadResumesByteForByte(validator: String) async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keptFile = directory.appendingPathComponent("kept")
        let size: Int64 = 2_000_000
        try await withSandbox { sandbox, session in
            let first = try HTTPCycle(sandbox.url("/download/\(size)?drop=700001&validator=\(validator)"), method: .get, session: session)
            first.delivery = .download(keepingDownload(in: directory, kept: keptFile, resumable: true))
            _ = await httpError { try await first.start() }
            let resumeData = try #require(first.resumeData)
            // The client may lose what was still buffered when the connection broke.
            let kept = resumeData.bytesWritten
            #expect(kept > 0 && kept <= 700_001)
            #expect(resumeData.expectedLength == size)
            #expect(try Data(contentsOf: resumeData.partialFile) == SandboxStreams.pattern(0..<kept))

            let progress = ProgressLog()
            let second = try HTTPCycle(sandbox.url("/download/\(size)?validator=\(validator)"), method: .get, session: session)
            second.delivery = .download(keepingDownload(in: directory, kept: keptFile, resumingFrom: resumeData, progress: progress))
            let response = try await second.start()
            #expect(response.statusCode == 206)
            #expect(progress.isConsistent(from: kept))
            #expect(progress.all.last?.total == size)
            #expect(progress.all.allSatisfy { $0.expected == size })
        }
        #expect(try Data(contentsOf: keptFile) == SandboxStreams.pattern(0..<size))
        #expect(contents(of: directory) == ["kept"])
    }

    @Test func retriesOfADownloadContinueWhereTheLastAttemptStopped() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("kept")
        try await withSandbox { sandbox, session in
            // Every answer closes after 300 000 body bytes: only continuing can finish 1 000 000.
            let cycle = try HTTPCycle(sandbox.url("/download/1000000?drop=300000"), method: .get, session: session)
            var policy = RetryPolicy()
            policy.baseDelay = .milliseconds(1)
            policy.maximumRetryCount = 10
            policy.shouldRetry = { attempt in if case .connectionLost = attempt.error { true } else { nil } }
            cycle.options.retryPolicy = policy
            cycle.delivery = .download(keepingDownload(in: directory, kept: kept, resumable: true))
            // The caller gets the first answer's head: the continuations are inside its body.
            #expect(try await cycle.start().statusCode == 200)
            #expect(cycle.retryCount >= 3)
        }
        #expect(try Data(contentsOf: kept) == SandboxStreams.pattern(0..<1_000_000))
    }

    @Test(arguments: TransportKind.allCases) func aCancelledDownloadResumes(transport: TransportKind) async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("kept")
        let size: Int64 = 12 << 20
        try await withSandbox(transport: transport) { sandbox, session in
            let first = try HTTPCycle(sandbox.url("/download/\(size)"), method: .get, session: session)
            first.delivery = .download(keepingDownload(in: directory, kept: kept, resumable: true) { total in
                if total >= 1 << 20 { first.cancel(explicitly: true) }
            })
            guard let error = await httpError({ try await first.start() }), error.code == .cancelled, error.isExplicitCancellation else {
                Issue.record("expected an explicit cancellation")
                return
            }
            let resumeData = try #require(first.resumeData)
            #expect(resumeData.bytesWritten >= 1 << 20 && resumeData.bytesWritten < size)

            let second = try HTTPCycle(sandbox.url("/download/\(size)"), method: .get, session: session)
            second.delivery = .download(keepingDownload(in: directory, kept: kept, resumingFrom: resumeData))
            #expect(try await second.start().statusCode == 206)
        }
        #expect(try Data(contentsOf: kept) == SandboxStreams.pattern(0..<size))
    }

    @Test(arguments: TransportKind.allCases) func aChangedResourceIsDownloadedWholeAgain(transport: TransportKind) async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("kept")
        try await withSandbox(transport: transport) { sandbox, session in
            let first = try HTTPCycle(sandbox.url("/download/500000?drop=200000&version=1"), method: .get, session: session)
            first.delivery = .download(keepingDownload(in: directory, kept: kept, resumable: true))
            _ = await httpError { try await first.start() }
            let resumeData = try #require(first.resumeData)
            let second = try HTTPCycle(sandbox.url("/download/500000?version=2"), method: .get, session: session)
            second.delivery = .download(keepingDownload(in: directory, kept: kept, resumingFrom: resumeData))
            #expect(try await second.start().statusCode == 200, "If-Range no longer matches: the whole body")
        }
        #expect(try Data(contentsOf: kept) == SandboxStreams.pattern(0..<500_000))
    }

    @Test(arguments: ["weak", "none"])
    func withoutAStrongValidatorNothingIsKept(validator: String) async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/500000?drop=200000&validator=\(validator)"), method: .get, session: session)
            cycle.delivery = .download(keepingDownload(in: directory, kept: directory.appendingPathComponent("kept"), resumable: true))
            _ = await httpError { try await cycle.start() }
            #expect(cycle.resumeData == nil)
        }
        #expect(contents(of: directory).isEmpty)
    }

    @Test func resumeDataKeptAcrossLaunchesReadsBackAsItWasAndRefusesAMissingField() throws {
        let url = try #require(URL(string: "https://downloads.example/image.iso"))
        let resumeData = DownloadResumeData(
            url: url, partialFile: URL(fileURLWithPath: "/tmp/partial"), bytesWritten: 700_001, validator: "\"v1\"", expectedLength: nil)
        let kept = try JSONEncoder().encode(resumeData)
        #expect(try JSONDecoder().decode(DownloadResumeData.self, from: kept) == resumeData)
        var fields = try #require(try JSONSerialization.jsonObject(with: kept) as? [String: Any])
        fields["validator"] = nil
        let damaged = try JSONSerialization.data(withJSONObject: fields)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DownloadResumeData.self, from: damaged) }
    }

    @Test func aRangeThatDoesNotContinueIsRefused() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let partial = directory.appendingPathComponent("partial")
        try SandboxStreams.pattern(0..<1000).write(to: partial)
        // Resume data claiming another server's validator for a partial file of 1000 bytes,
        // against a mock that answers with the wrong range.
        let transport = MockTransport()
        transport.stub(where: { _ in true }) { request in
            #expect(request.headers["Range"] == "bytes=1000-")
            #expect(request.headers["If-Range"] == "\"v\"")
            return .response(status: 206, headers: ["Content-Range": "bytes 0-9/2000", "ETag": "\"v\""], body: Data(count: 10))
        }
        let session = HTTPSession(configuration: .init { $0.customTransport = transport; $0.logger = quietLogger })
        let cycle = HTTPCycle(requestURL: URL(string: "http://example.test/file")!, session: session)
        cycle.delivery = .download(HTTPDownload(
            resumingFrom: DownloadResumeData(
                url: cycle.request.url, partialFile: partial, bytesWritten: 1000, validator: "\"v\"", expectedLength: 2000)
        ) { _, _ in Issue.record("no file for a wrong range") })
        guard let error = await httpError({ try await cycle.start() }), error.code == .downloadNotResumable else {
            Issue.record("expected downloadNotResumable")
            return
        }
        #expect(try Data(contentsOf: partial).count == 1000, "the partial file stays for another try")
    }
}
