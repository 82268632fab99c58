import Foundation
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// Ranges through `jewz proxy --cache` and `jewz --cache`, as curl and jewz ask for them: answered
/// from a stored whole response, and from a stored `206` that holds the range (RFC 9110 §14,
/// RFC 9111 §3.3), the origin asked once.
@Suite struct ProxyRangeTests {
    /// An origin whose `/whole` is eleven bytes with a strong validator, whatever the request
    /// asks, and whose `/tail` answers every request with the last five of them as a `206`,
    /// without a validator; both fresh for an hour.
    private static func origin() async throws -> ScriptedServer {
        try await ScriptedServer.start { request in
            if request.target.hasPrefix("/tail") {
                return [.send(responseHead("HTTP/1.1 206 Partial Content", [
                    "Content-Range: bytes 6-10/11", "Content-Length: 5", "Cache-Control: max-age=3600",
                ]) + "67890")]
            }
            return [.send(responseHead("HTTP/1.1 200 OK", [
                "Content-Length: 11", "Cache-Control: max-age=3600", #"ETag: "v1""#, "Content-Type: text/plain", "A: 1",
            ]) + "0123456789A")]
        }
    }

    private static func header(_ name: String, in response: String) -> String? {
        response.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    /// A stored piece from byte 0 without a validator: a request for the whole asks the origin
    /// for the rest (`Range: bytes=5-`), and since pieces without a strong validator are never
    /// combined (RFC 9111 §3.4), the rest's `206` is not joined to it: the whole is asked for.
    @Test func aStoredStartWithoutAValidatorIsCompletedOnlyByTheWhole() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-proxy-complete")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ranges = Mutex<[String?]>([])
        let origin = try await ScriptedServer.start { request in
            let range = request.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("range:") }
                .map { String($0.dropFirst(6)).trimmingCharacters(in: .whitespaces) }
            ranges.withLock { $0.append(range) }
            let fresh = "Cache-Control: max-age=3600"
            switch range {
            case "bytes=-5"?: return [.send(responseHead("HTTP/1.1 206 Partial Content", ["Content-Range: bytes 0-4/10", "Content-Length: 5", fresh]) + "01234")]
            case "bytes=5-"?: return [.send(responseHead("HTTP/1.1 206 Partial Content", ["Content-Range: bytes 5-9/10", "Content-Length: 5", fresh]) + "56789")]
            default: return [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: 10", fresh]) + "0123456789")]
            }
        }
        let proxy = try await ServingJewz.start(["--port", "0", "--upstream", origin.url(""), "--cache", directory.path], command: "proxy")
        #expect(try await runCurl(["-H", "Range: bytes=-5", proxy.baseURL + "/start"]).output == "01234")
        #expect(try await runCurl([proxy.baseURL + "/start"]).output == "0123456789")
        #expect(ranges.withLock { $0 } == ["bytes=-5", "bytes=5-", nil])
        try await proxy.stopAndWait()
        try await origin.shutdown()
    }

    @Test func aSharedCacheAnswersRangesFromAStoredResponse() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-proxy-ranges")
        defer { try? FileManager.default.removeItem(at: directory) }
        let origin = try await Self.origin()
        let proxy = try await ServingJewz.start(["--port", "0", "--upstream", origin.url(""), "--cache", directory.path], command: "proxy")
        let url = proxy.baseURL + "/whole"
        #expect(try await runCurl([url]).output == "0123456789A")

        let first = try await runCurl(["--include", "-H", "Range: bytes=0-1", url]).output
        #expect(first.hasPrefix("HTTP/1.1 206 Partial Content\r\n"), "\(first)")
        #expect(Self.header("Content-Range", in: first) == "bytes 0-1/11")
        #expect(first.hasSuffix("\r\n\r\n01"))
        #expect(Self.header("A", in: first) == "1", "the stored response's own fields go with its ranges")
        #expect(try await runCurl(["-H", "Range: bytes=-3", url]).output == "89A")

        let several = try await runCurl(["--include", "-H", "Range: bytes=0-1,5-6", url]).output
        #expect(several.hasPrefix("HTTP/1.1 206 Partial Content\r\n"), "\(several)")
        #expect(Self.header("Content-Type", in: several)?.hasPrefix("multipart/byteranges; boundary=") == true, "\(several)")
        #expect(several.contains("Content-Range: bytes 0-1/11\r\n\r\n01") && several.contains("Content-Range: bytes 5-6/11\r\n\r\n56"))

        let beyond = try await runCurl(["--include", "-H", "Range: bytes=20-", url]).output
        #expect(beyond.hasPrefix("HTTP/1.1 416 Range Not Satisfiable\r\n"), "\(beyond)")
        #expect(Self.header("Content-Range", in: beyond) == "bytes */11")
        // An If-Range naming another representation gets the whole body.
        let changed = try await runCurl(["--include", "-H", "Range: bytes=0-1", "-H", #"If-Range: "v0""#, url]).output
        #expect(changed.hasPrefix("HTTP/1.1 200 OK\r\n") && changed.hasSuffix("0123456789A"), "\(changed)")
        let same = try await runCurl(["-H", "Range: bytes=2-3", "-H", #"If-Range: "v1""#, url]).output
        #expect(same == "23")

        #expect(origin.requestCount == 1, "every range from the stored response")
        try await proxy.stopAndWait()
        try await origin.shutdown()
    }

    /// A `206` without a validator cannot be combined with another piece, but it answers a
    /// range wholly inside it while it is fresh (RFC 9111 §3.3): in the shared cache of the
    /// proxy and in a request's private cache alike.
    @Test func aStoredRangeWithoutAValidatorAnswersRangesInsideIt() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-proxy-partial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let origin = try await Self.origin()
        let proxy = try await ServingJewz.start(
            ["--port", "0", "--upstream", origin.url(""), "--cache", directory.appendingPathComponent("shared").path], command: "proxy")
        let url = proxy.baseURL + "/tail"
        for _ in 0..<2 {
            let answer = try await runCurl(["--include", "-H", "Range: bytes=-5", url]).output
            #expect(answer.hasPrefix("HTTP/1.1 206 Partial Content\r\n") && answer.hasSuffix("\r\n\r\n67890"), "\(answer)")
            #expect(Self.header("Content-Range", in: answer) == "bytes 6-10/11")
        }
        let inside = try await runCurl(["--include", "-H", "Range: bytes=7-9", url]).output
        #expect(Self.header("Content-Range", in: inside) == "bytes 7-9/11" && inside.hasSuffix("\r\n\r\n789"), "\(inside)")
        #expect(origin.requestCount == 1, "the stored piece answered the ranges inside it")
        try await proxy.stopAndWait()

        let privateCache = directory.appendingPathComponent("private").path
        for _ in 0..<2 {
            let run = try await runJewz(["--cache", privateCache, origin.url("/tail"), "Range:bytes=-5"])
            #expect(run.output == "67890", "\(run.error)")
        }
        let run = try await runJewz(["--cache", privateCache, origin.url("/tail"), "Range:bytes=8-"])
        #expect(run.output == "890", "\(run.error)")
        #expect(origin.requestCount == 2, "one more for the private cache, then none")
        try await origin.shutdown()
    }
}
