import Foundation
import JewzCache
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// Partial content for bodies that never sit in memory: a download or a stream cut off is kept
/// as a piece, and the next one of the URL asks the origin only for the rest.
@Suite struct StreamedPartialContentTests {
    private func configuration(store kind: String, in directory: URL) throws -> HTTPSession.Configuration {
        var configuration = HTTPSession.Configuration()
        configuration.cache = HTTPCache(store: kind == "disk" ? try DiskCacheStore(directory: directory) : MemoryCacheStore())
        configuration.retryPolicy = .never
        return configuration
    }

    @Test(arguments: ["memory", "disk"])
    func aDownloadCutOffIsKeptAndTheNextDownloadAsksOnlyForTheRest(store kind: String) async throws {
        let heads = Heads()
        let directory = try makeScratchDirectory(prefix: "streamed-piece")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try configuration(store: kind, in: directory)
        try await withScriptedServer(configuration: configuration, PartialContentOrigin.breaking(heads: heads)) { server, session in
            let url = server.url("/file.bin")
            let broken = await httpError { _ = try await download(url, session: session) }
            #expect(broken?.code == .connectionLost)
            let (response, file) = try await download(url, session: session)
            #expect(response.statusCode == 200)
            #expect(file == PartialContentOrigin.body, "byte-identical to the origin's")
            let asked = heads.all.map { $0.lowercased() }
            #expect(asked.count == 2)
            #expect(asked.last?.contains("range: bytes=40-") == true, "\(asked.last ?? "")")
            #expect(asked.last?.contains(#"if-range: "p1""#) == true)
            // The completed whole was stored as it was read: a third download needs no origin.
            let (again, fileAgain) = try await download(url, session: session)
            #expect(again.source == .cache)
            #expect(fileAgain == PartialContentOrigin.body)
            #expect(heads.all.count == 2)
        }
    }

    @Test func aStreamedReadCompletesAPieceAndReadsTheWholeInOrder() async throws {
        let heads = Heads()
        let directory = try makeScratchDirectory(prefix: "streamed-read")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withScriptedServer(configuration: try configuration(store: "disk", in: directory), PartialContentOrigin.breaking(heads: heads)) { server, session in
            let url = try #require(URL(string: server.url("/stream.bin")))
            #expect(await httpError { _ = try await fetch(url.absoluteString, session: session) }?.code == .connectionLost)
            let opened = try await HTTPCycle(requestURL: url, session: session).startStreaming()
            let (response, body) = (opened.head, opened.body)
            #expect(response.statusCode == 200)
            #expect(response.headers["Content-Length"] == "100")
            #expect(try await body.collect(upTo: 1 << 20) == PartialContentOrigin.body)
            #expect(heads.all.last?.lowercased().contains("range: bytes=40-") == true)
        }
    }

    @Test func aChangedValidatorDropsThePieceAndDownloadsTheWhole() async throws {
        let heads = Heads()
        let directory = try makeScratchDirectory(prefix: "streamed-changed")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try configuration(store: "disk", in: directory)
        try await withScriptedServer(configuration: configuration, PartialContentOrigin.breaking(changedTo: "\"p2\"", heads: heads)) { server, session in
            let url = server.url("/changed.bin")
            _ = await httpError { _ = try await download(url, session: session) }
            let (response, file) = try await download(url, session: session)
            #expect(response.statusCode == 200)
            #expect(file == PartialContentOrigin.body)
            let asked = heads.all.map { $0.lowercased() }
            #expect(asked.count == 3, "the rest, refused for its validator, then the whole")
            #expect(asked.last?.contains("range:") == false)
            #expect(response.headers["ETag"] == "\"p2\"")
        }
    }
}
