import Foundation
@testable import JewzCache
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// Partial content (RFC 9111 §3.3–3.4) against an origin that answers ranges as told.
@Suite struct PartialContentTests {
    @Test(arguments: ["memory", "disk"])
    func aStoredPieceAnswersTheRangesItCoversAndIsCompletedByOneRangeRequest(store kind: String) async throws {
        let heads = Heads()
        let directory = try makeScratchDirectory(prefix: "partial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store: any CacheStore = kind == "disk" ? try DiskCacheStore(directory: directory) : MemoryCacheStore()
        var configuration = HTTPSession.Configuration()
        configuration.cache = HTTPCache(store: store)
        try await withScriptedServer(configuration: configuration, PartialContentOrigin.ranges(etag: "\"p1\"", heads: heads)) { server, session in
            let url = server.url("/file")
            let first = try await fetch(url, session: session, headers: ["Range": "bytes=0-49"])
            #expect(first.statusCode == 206 && first.data == PartialContentOrigin.body.prefix(50))
            let inside = try await fetch(url, session: session, headers: ["Range": "bytes=10-19"])
            #expect(inside.statusCode == 206)
            #expect(inside.source == .cache)
            #expect(inside.data == PartialContentOrigin.body.subdata(in: 10..<20))
            #expect(inside.headers["Content-Range"] == "bytes 10-19/100")
            #expect(heads.all.count == 1, "the range came from the stored piece")

            let whole = try await fetch(url, session: session)
            #expect(whole.statusCode == 200)
            #expect(whole.data == PartialContentOrigin.body, "byte-identical to the origin's")
            let asked = heads.all
            #expect(asked.count == 2)
            #expect(asked.last?.lowercased().contains("range: bytes=50-") == true, "\(asked.last ?? "")")
            #expect(asked.last?.contains("\"p1\"") == true, "If-Range names the piece's validator")
            let again = try await fetch(url, session: session)
            #expect(again.source == .cache)
            #expect(again.data == PartialContentOrigin.body)
        }
    }

    /// An origin that ignores `If-Range` and sends the rest of another representation: the
    /// pieces do not fit together, and the whole body is asked for anew.
    @Test func aChangedValidatorBetweenThePiecesRefetchesTheWhole() async throws {
        let heads = Heads()
        var configuration = HTTPSession.Configuration()
        configuration.cache = HTTPCache()
        try await withScriptedServer(configuration: configuration, PartialContentOrigin.ranges(etag: "\"p1\"", changedTo: "\"p2\"", changeAt: 1, heads: heads)) { server, session in
            let url = server.url("/changing")
            _ = try await fetch(url, session: session, headers: ["Range": "bytes=0-49"])
            let whole = try await fetch(url, session: session)
            #expect(whole.statusCode == 200)
            #expect(whole.data == PartialContentOrigin.body)
            #expect(whole.headers["ETag"] == "\"p2\"")
            let asked = heads.all
            #expect(asked.count == 3, "the piece, the rest that did not fit, the whole")
            #expect(asked.last?.lowercased().contains("range:") == false)
        }
    }

    /// A piece with only a weak validator answers the ranges wholly inside it while it is fresh
    /// (RFC 9111 §3.3), but is never joined to another (§3.4 wants a strong validator): the
    /// next piece takes its place.
    @Test func aPieceWithAWeakValidatorAnswersInsideItButIsNeverJoined() async throws {
        let heads = Heads()
        var configuration = HTTPSession.Configuration()
        configuration.cache = HTTPCache()
        try await withScriptedServer(configuration: configuration, PartialContentOrigin.ranges(etag: "W/\"weak\"", heads: heads)) { server, session in
            let url = server.url("/weak")
            _ = try await fetch(url, session: session, headers: ["Range": "bytes=0-49"])
            let inside = try await fetch(url, session: session, headers: ["Range": "bytes=0-9"])
            #expect(inside.source == .cache)
            #expect(inside.headers["Content-Range"] == "bytes 0-9/100")
            _ = try await fetch(url, session: session, headers: ["Range": "bytes=50-99"])
            let across = try await fetch(url, session: session, headers: ["Range": "bytes=40-59"])
            #expect(across.source == .network, "the two pieces were not joined")
            let second = try await fetch(url, session: session, headers: ["Range": "bytes=0-9"])
            #expect(second.source == .network, "the later piece took the first one's place")
            #expect(heads.all.count == 4)
        }
    }

    @Test(arguments: ["memory", "disk"])
    func aBodyCutOffIsKeptAsAPieceAndCompletedByOneRangeRequest(store kind: String) async throws {
        let heads = Heads()
        let directory = try makeScratchDirectory(prefix: "cut-off")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = HTTPSession.Configuration()
        configuration.cache = HTTPCache(store: kind == "disk" ? try DiskCacheStore(directory: directory) : MemoryCacheStore())
        configuration.retryPolicy = .never
        try await withScriptedServer(configuration: configuration, PartialContentOrigin.breaking(heads: heads)) { server, session in
            let url = server.url("/broken")
            let error = await httpError { try await fetch(url, session: session) }
            #expect(error?.code == .connectionLost)
            #expect(error?.response?.data == PartialContentOrigin.body.prefix(40), "the part that arrived comes with the error")
            let start = try await fetch(url, session: session, headers: ["Range": "bytes=0-9"])
            #expect(start.source == .cache && start.data == PartialContentOrigin.body.prefix(10))
            let whole = try await fetch(url, session: session)
            #expect(whole.statusCode == 200)
            #expect(whole.data == PartialContentOrigin.body, "byte-identical to the origin's")
            let asked = heads.all
            #expect(asked.count == 2)
            #expect(asked.last?.lowercased().contains("range: bytes=40-") == true, "\(asked.last ?? "")")
        }
    }

    /// A retry after the break goes through the cache too: it asks only for the rest.
    @Test func aRetryAfterACutOffAsksOnlyForTheRest() async throws {
        let heads = Heads()
        var configuration = HTTPSession.Configuration()
        configuration.cache = HTTPCache()
        configuration.retryPolicy.shouldRetry = { attempt in attempt.error.code == .connectionLost ? attempt.retryCount == 0 : nil }
        try await withScriptedServer(configuration: configuration, PartialContentOrigin.breaking(heads: heads)) { server, session in
            let whole = try await fetch(server.url("/retried"), session: session)
            #expect(whole.statusCode == 200 && whole.data == PartialContentOrigin.body)
            #expect(heads.all.count == 2)
            #expect(heads.all.last?.lowercased().contains("range: bytes=40-") == true)
        }
    }

    /// An origin that answers `Range: bytes=0-9,10-29` with a `multipart/byteranges` 206 of
    /// those two parts, and other requests as ``PartialContentOrigin/ranges(etag:changedTo:changeAt:heads:)`` does.
    private static func byteRangesOrigin(heads: Heads) -> ScriptedServer.Script {
        let ranges = PartialContentOrigin.ranges(etag: "\"p1\"", heads: heads)
        return { request in
            guard request.head.contains("bytes=0-9,10-29") else { return ranges(request) }
            heads.append(request.head)
            var body = Data()
            for (first, last) in [(0, 9), (10, 29)] {
                body += Data("--SEP\r\nContent-Type: text/plain\r\nContent-Range: bytes \(first)-\(last)/100\r\n\r\n".utf8)
                body += PartialContentOrigin.body.subdata(in: first..<(last + 1)) + Data("\r\n".utf8)
            }
            body += Data("--SEP--\r\n".utf8)
            let head = [
                "ETag: \"p1\"", "Cache-Control: max-age=60", "Date: \(HTTPDate.string(from: Date()))",
                "Content-Type: multipart/byteranges; boundary=SEP", "Content-Length: \(body.count)",
            ]
            return [.send(responseHead("HTTP/1.1 206 Partial Content", head)), .send(Array(body))]
        }
    }

    @Test func theTouchingPartsOfAMultipartAnswerAreKeptAsOnePiece() async throws {
        let heads = Heads()
        var configuration = HTTPSession.Configuration()
        configuration.cache = HTTPCache()
        try await withScriptedServer(configuration: configuration, Self.byteRangesOrigin(heads: heads)) { server, session in
            let url = server.url("/parts")
            let parts = try await fetch(url, session: session, headers: ["Range": "bytes=0-9,10-29"])
            #expect(parts.statusCode == 206)
            let across = try await fetch(url, session: session, headers: ["Range": "bytes=5-24"])
            #expect(across.source == .cache, "the range spans both parts, joined")
            #expect(across.data == PartialContentOrigin.body.subdata(in: 5..<25))
            #expect(across.headers["Content-Type"] == "text/plain")
            let whole = try await fetch(url, session: session)
            #expect(whole.data == PartialContentOrigin.body)
            #expect(heads.all.count == 2)
            #expect(heads.all.last?.lowercased().contains("range: bytes=30-") == true, "\(heads.all.last ?? "")")
        }
    }

    @Test(arguments: ["memory", "disk"])
    func piecesThatDoNotTouchAreKeptSideBySideAndJoinWhenAPieceFillsTheGap(store kind: String) async throws {
        let heads = Heads()
        let directory = try makeScratchDirectory(prefix: "pieces")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = HTTPSession.Configuration()
        configuration.cache = HTTPCache(store: kind == "disk" ? try DiskCacheStore(directory: directory) : MemoryCacheStore())
        try await withScriptedServer(configuration: configuration, PartialContentOrigin.ranges(etag: "\"p1\"", heads: heads)) { server, session in
            let url = server.url("/apart")
            _ = try await fetch(url, session: session, headers: ["Range": "bytes=0-9"])
            _ = try await fetch(url, session: session, headers: ["Range": "bytes=50-59"])
            for (range, bytes) in [("0-9", 0..<10), ("52-57", 52..<58)] {
                let answer = try await fetch(url, session: session, headers: ["Range": "bytes=\(range)"])
                #expect(answer.source == .cache, "\(range) is held")
                #expect(answer.data == PartialContentOrigin.body.subdata(in: bytes))
                #expect(answer.headers["Content-Range"] == "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/100")
                #expect(answer.headers[StoredPieces.field] == nil, "the cache's own field stays in the store")
            }
            #expect(heads.all.count == 2)
            let gap = try await fetch(url, session: session, headers: ["Range": "bytes=5-55"])
            #expect(gap.source == .network, "a range over the gap is asked for")
            let across = try await fetch(url, session: session, headers: ["Range": "bytes=0-59"])
            #expect(across.source == .cache, "the three pieces joined into one")
            #expect(across.data == PartialContentOrigin.body.prefix(60))
            let whole = try await fetch(url, session: session)
            #expect(whole.data == PartialContentOrigin.body)
            #expect(heads.all.count == 4)
            #expect(heads.all.last?.lowercased().contains("range: bytes=60-") == true, "\(heads.all.last ?? "")")
        }
    }
}
