import Foundation
import JewzCache
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// A `Range` request answered from a stored whole response, without the origin (RFC 9110 §14).
@Suite struct RangeTests {
    @Test func aRangeOfAStoredBodyIsAnsweredFromTheStore() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/cached/ranged?cc=max-age=60&etag=v1&size=100")
            let whole = try await fetch(url, session: session)
            #expect(whole.data.count == 100)
            for (range, bytes) in [("bytes=10-19", 10...19), ("bytes=90-", 90...99), ("bytes=-5", 95...99), ("bytes=95-500", 95...99)] {
                let part = try await fetch(url, session: session, headers: ["Range": range])
                #expect(part.statusCode == 206, "\(range)")
                #expect(part.source == .cache, "\(range)")
                #expect(part.data == whole.data.subdata(in: bytes.lowerBound..<(bytes.upperBound + 1)), "\(range)")
                #expect(part.headers["Content-Range"] == "bytes \(bytes.lowerBound)-\(bytes.upperBound)/100", "\(range)")
                #expect(part.headers["Content-Length"] == String(bytes.count), "\(range)")
            }
            #expect(sandbox.router.cacheHits(forKey: "ranged") == 1, "every range came from the store")
        }
    }

    @Test func aRangeOutsideTheBodyIsA416AndOthersGetTheWholeBody() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.cache = HTTPCache()
        configuration.shouldTreatStatusCodeAsFailure = { _ in false }
        try await withSandbox(configuration: configuration) { sandbox, session in
            let url = sandbox.url("/cached/whole?cc=max-age=60&etag=v1&size=100")
            let whole = try await fetch(url, session: session)
            let outside = try await fetch(url, session: session, headers: ["Range": "bytes=100-200"])
            #expect(outside.statusCode == 416)
            #expect(outside.headers["Content-Range"] == "bytes */100")
            let manyRanges = (0..<101).map { "\($0)-\($0)" }.joined(separator: ",")
            for (field, why) in [
                ("bytes=5-6,0-1", "ranges that go back"), ("bytes=0-5,3-8", "overlapping ranges"),
                ("bytes=" + manyRanges, "more than a hundred ranges"), ("items=0-1", "another unit"), ("bytes=5-2", "a malformed range"),
            ] {
                let answer = try await fetch(url, session: session, headers: ["Range": field])
                #expect(answer.statusCode == 200, "\(why)")
                #expect(answer.data == whole.data, "\(why)")
            }
            // If-Range: the stored validator answers the range, another the whole body.
            let current = try await fetch(url, session: session, headers: ["Range": "bytes=0-9", "If-Range": "\"v1\""])
            #expect(current.statusCode == 206)
            let changed = try await fetch(url, session: session, headers: ["Range": "bytes=0-9", "If-Range": "\"v0\""])
            #expect(changed.statusCode == 200)
            #expect(changed.data == whole.data)
            #expect(sandbox.router.cacheHits(forKey: "whole") == 1)
        }
    }

    /// Several ranges are answered as `multipart/byteranges` (RFC 9110 §14.6), each part with
    /// its own `Content-Range` and the stored body's type.
    @Test func severalRangesAreAnsweredAsMultipartByteranges() async throws {
        try await withCachedSandbox(HTTPCache()) { sandbox, session in
            let url = sandbox.url("/cached/parts?cc=max-age=60&size=100")
            let whole = try await fetch(url, session: session)
            let answer = try await fetch(url, session: session, headers: ["Range": "bytes=0-4, 10-14, 95-"])
            #expect(answer.statusCode == 206)
            #expect(answer.source == .cache)
            let type = try #require(answer.headers["Content-Type"])
            #expect(type.hasPrefix("multipart/byteranges; boundary="))
            let boundary = String(type.dropFirst("multipart/byteranges; boundary=".count))
            let text = String(decoding: answer.data, as: UTF8.self)
            let parts = text.components(separatedBy: "--" + boundary).dropFirst().dropLast()
            #expect(parts.count == 3)
            for (part, bytes) in zip(parts, [0...4, 10...14, 95...99]) {
                #expect(part.contains("Content-Range: bytes \(bytes.lowerBound)-\(bytes.upperBound)/100\r\n"), "\(part)")
                // The part's bytes: after its blank line, before the CRLF that ends it.
                let content = Data((part.components(separatedBy: "\r\n\r\n").last ?? "").utf8.dropLast(2))
                #expect(content == whole.data.subdata(in: bytes.lowerBound..<(bytes.upperBound + 1)), "\(part)")
            }
            #expect(text.hasSuffix("--\(boundary)--\r\n"))
            #expect(answer.headers["Content-Range"] == nil)
            #expect(sandbox.router.cacheHits(forKey: "parts") == 1)
        }
    }

    /// A disk store leaves a large body in its file; the ranges asked of it are read from
    /// there, at their offsets, without the rest and without the origin.
    @Test func rangesOfALargeBodyInADiskStoreAreReadFromItsFile() async throws {
        try await withLargeBodyInADiskStore(length: 1_500_000) { body, url, server, session in
            let one = try await fetch(url, session: session, headers: ["Range": "bytes=1200000-1200009"])
            #expect(one.statusCode == 206)
            #expect(one.source == .cache)
            #expect(one.data == body.subdata(in: 1_200_000..<1_200_010))
            #expect(one.headers["Content-Range"] == "bytes 1200000-1200009/1500000")
            let several = try await fetch(url, session: session, headers: ["Range": "bytes=5-9, 1499995-"])
            #expect(several.statusCode == 206)
            let text = String(decoding: several.data, as: UTF8.self)
            #expect(text.contains("Content-Range: bytes 1499995-1499999/1500000"))
            #expect(several.data.range(of: body.subdata(in: 1_499_995..<1_500_000)) != nil)
            #expect(server.requestCount == 1, "every range came from the store")
        }
    }

    /// One range of a body in a file goes up as a stream read from it, never whole in
    /// memory; several ranges that would hold more than `maximumBytesInParts` in memory get
    /// the whole body, streamed, instead.
    @Test func aLargeRangeOfABodyInAFileStreamsAndLargePartsGetTheWholeBody() async throws {
        try await withLargeBodyInADiskStore(length: 6_000_000) { body, url, server, session in
            var request = HTTPRequest(url: try #require(URL(string: url)))
            request.headers["Range"] = "bytes=1000-"
            let ranged = try await session.stream(request)
            #expect(ranged.statusCode == 206)
            #expect(ranged.headers["Content-Range"] == "bytes 1000-5999999/6000000")
            #expect(ranged.headers["Content-Length"] == "5999000")
            #expect(ranged.body.data == nil, "the range is a stream from the file, not bytes read first")
            var received = Data()
            for try await chunk in ranged.body { received.append(chunk) }
            #expect(received == body.subdata(in: 1000..<body.count))
            let parts = try await fetch(url, session: session, headers: ["Range": "bytes=0-2999999, 3000001-5999999"])
            #expect(parts.statusCode == 200)
            #expect(parts.data == body)
            #expect(server.requestCount == 1, "every answer came from the store")
        }
    }

    /// Runs `check` once a body `length` bytes long, validated and fresh for ten minutes, has
    /// been fetched whole into a disk store from a scripted origin (which it checks came whole).
    private func withLargeBodyInADiskStore(
        length: Int, _ check: (_ body: Data, _ url: String, ScriptedServer, HTTPSession) async throws -> Void
    ) async throws {
        let scratch = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let body = Data((0..<length).map { UInt8($0 % 251) })
        var configuration = HTTPSession.Configuration()
        configuration.cache = try HTTPCache(directory: scratch)
        try await withScriptedServer(configuration: configuration, { _ in
            [.send(responseHead("HTTP/1.1 200 OK", ["Cache-Control: max-age=600", "ETag: \"v1\"", "Content-Length: \(body.count)"])), .send(Array(body))]
        }) { server, session in
            let url = server.url("/large")
            #expect(try await fetch(url, session: session).data == body)
            try await check(body, url, server, session)
        }
    }
}
