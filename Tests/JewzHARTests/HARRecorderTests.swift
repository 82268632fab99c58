import Foundation
import JewzGzip
import JewzHAR
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// `HARRecorder` against the Sandbox: what HAR 1.2 asks of each object, credentials redacted,
/// bodies decoded, bounded, base64 when binary, and a file whole after every entry.
@Suite struct HARRecorderTests {
    /// Runs `body` with a session recording into a file in a scratch directory, then returns
    /// the file's raw JSON and the archive read back.
    private func recording(
        _ configuration: HARRecorder.Configuration = .init(), contentCodings: ContentCodingRegistry = ContentCodingRegistry(),
        _ body: (Sandbox, HTTPSession) async throws -> Void
    ) async throws -> (json: [String: Any], archive: HTTPArchive) {
        let directory = try makeScratchDirectory(prefix: "jewz-har")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.har")
        let recorder = try HARRecorder(writingTo: file, configuration: configuration)
        var session = HTTPSession.Configuration()
        session.networkMiddleware = [recorder]
        session.retryPolicy = .never
        session.shouldTreatStatusCodeAsFailure = { _ in false }
        try await withSandbox(configuration: session, contentCodings: contentCodings, body)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        return (json, try HTTPArchive(contentsOf: file))
    }

    @Test func anOAuthTokenRequestAndItsAnswerKeepNoCredential() async throws {
        let (json, archive) = try await recording { sandbox, session in
            let token = try HTTPCycle(sandbox.url("/oauth/token"), method: .post, session: session)
            token.request.headers["Content-Type"] = "application/x-www-form-urlencoded"
            token.request.data = Data("grant_type=client_credentials&client_id=jewz-confidential&client_secret=s3cret&scope=read".utf8)
            try await token.start()
            #expect(token.response?.text?.contains(#""access_token":"at-"#) == true)
        }
        let recorded = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        #expect(!recorded.contains("s3cret"))
        #expect(!recorded.contains("at-"))
        let entry = try #require(archive.log.entries.first)
        #expect(entry.request.postData?.text == "grant_type=client_credentials&client_id=jewz-confidential&client_secret=[redacted]&scope=read")
        #expect(entry.response.content.text?.contains(#""access_token":"[redacted]""#) == true)
        #expect(entry.response.content.text?.contains(#""token_type":"Bearer""#) == true)
    }

    @Test func eachExchangeIsAnEntryAsHAR12Writes() async throws {
        let (json, archive) = try await recording { sandbox, session in
            _ = try await HTTPCycle.get(
                sandbox.url("/json?b=2&a=1"), headers: ["Authorization": "Bearer secret", "Cookie": "id=ada; theme=dark"], session: session)
            _ = try await HTTPCycle.post(sandbox.url("/dumpupload/"), requestObject: nil, session: session)
            let upload = try HTTPCycle(sandbox.url("/dumpupload/"), method: .post, session: session)
            upload.request.data = Data(#"{"name":"Ada"}"#.utf8)
            upload.request.headers["Content-Type"] = "application/json"
            try await upload.start()
            _ = try await HTTPCycle.get(sandbox.url("/status/404"), session: session)
        }
        try HARConformance.check(json)
        #expect(archive.log.version == "1.2")
        #expect(archive.log.creator == .jewzruxin)
        #expect(archive.log.entries.count == 4)
        let get = try #require(archive.log.entries.first)
        #expect(get.request.method == "GET")
        #expect(get.request.url.hasSuffix("/json?b=2&a=1"))
        #expect(get.request.queryString == [.init(name: "b", value: "2"), .init(name: "a", value: "1")])
        #expect(get.request.headers.first { $0.name == "Authorization" }?.value == "[redacted]")
        #expect(get.request.cookies.map(\.name) == ["id", "theme"])
        #expect(get.request.cookies.allSatisfy { $0.value == "[redacted]" })
        #expect(get.response.status == 200)
        #expect(get.response.statusText == "OK")
        #expect(get.response.content.mimeType == "application/json")
        #expect(get.response.content.text?.contains("Wörld") == true)
        #expect(get.response.content.size == get.response.content.text?.utf8.count)
        #expect(get.time == get.timings.wait + get.timings.receive)
        let posted = archive.log.entries[2]
        #expect(posted.request.postData?.mimeType == "application/json")
        #expect(posted.request.postData?.text == #"{"name":"Ada"}"#)
        #expect(posted.request.bodySize == 14)
        #expect(archive.log.entries[3].response.status == 404)
        #expect(archive.log.entries[3].response.statusText == "Not Found")
    }

    @Test func bodiesAreDecodedBase64WhenBinaryAndLeftOutPastTheLimit() async throws {
        var gzip = ContentCodingRegistry()
        gzip.register(HTTPGzipProcessor(), for: HTTPGzipProcessor.codings)
        let (_, archive) = try await recording(.init(bodyLimit: 1000), contentCodings: gzip) { sandbox, session in
            _ = try await HTTPCycle.get(sandbox.url("/encoded?coding=gzip&content=hello%20&repeat=50"), session: session)
            _ = try await HTTPCycle.get(sandbox.url("/bytes/300"), session: session)
            _ = try await HTTPCycle.get(sandbox.url("/bytes/5000"), session: session)
        }
        let entries = archive.log.entries
        #expect(entries[0].response.content.text == String(repeating: "hello ", count: 50))
        #expect(entries[0].response.headers.contains { $0.name == "Content-Encoding" && $0.value == "gzip" })
        #expect(entries[1].response.content.encoding == "base64")
        #expect(entries[1].response.content.text.flatMap { Data(base64Encoded: $0) } == Data((0..<300).map { UInt8(truncatingIfNeeded: $0) }))
        #expect(entries[2].response.content.text == nil)
        #expect(entries[2].response.content.size == 5000)
        #expect(entries[2].response.content.comment?.contains("past the recorder's limit of 1000") == true)
    }

    @Test func aDownloadIsRecordedAsItStreamsNotHeld() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-har-download")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, archive) = try await recording(.init(bodyLimit: 1 << 10)) { sandbox, session in
            let destination = directory.appendingPathComponent("file")
            try await HTTPCycle.download(sandbox.url("/download/300000"), session: session) { _, location in
                try FileManager.default.moveItem(at: location, to: destination)
            }
            #expect(try Data(contentsOf: destination).count == 300_000)
        }
        let entry = try #require(archive.log.entries.first)
        #expect(entry.response.content.size == 300_000)
        #expect(entry.response.content.text == nil)
    }

    @Test func aFailureIsRecordedWithItsReason() async throws {
        // A port held and never listening: nothing the suite starts meanwhile can take it.
        let (json, archive) = try await withRefusedURL("/hello/") { url in
            try await recording { _, session in
                _ = await httpError { try await HTTPCycle.get(url, session: session) }
            }
        }
        try HARConformance.check(json)
        let entry = try #require(archive.log.entries.first)
        #expect(entry.response.status == 0)
        #expect(entry.response.comment?.hasPrefix("failed: ") == true)
    }

    @Test func aFileCutInsideAnEntryGivesTheEntriesBeforeIt() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-har-cut")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cut.har")
        let recorder = try HARRecorder(writingTo: file)
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [recorder]
        try await withSandbox(configuration: configuration) { sandbox, session in
            for index in 0..<3 { _ = try await HTTPCycle.get(sandbox.url("/echo/?content=\(index)"), session: session) }
        }
        #expect(try HTTPArchive(contentsOf: file).log.entries.count == 3)
        // As if the process died while writing the third entry.
        var data = try Data(contentsOf: file)
        data.removeLast(40)
        try data.write(to: file)
        let recovered = try HTTPArchive(contentsOf: file)
        #expect(recovered.log.entries.count == 2)
        #expect(recovered.log.entries.map { $0.response.content.text } == ["0", "1"])
    }
}
