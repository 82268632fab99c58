import Crypto
import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// A network middleware that hashes the body as it passes and adds the digest to the response
/// once the body is read (``HTTPResponseBody/withTrailers(_:)``), whatever the body's kind and
/// destination: one piece of code for bytes and streams.
struct BodyDigestMiddleware: HTTPMiddleware {
    var name: String { "digest" }

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var response = try await next(request)
        let hasher = Mutex(SHA256())
        response.body = response.body
            .map { chunk in
                hasher.withLock { $0.update(data: chunk) }
                return chunk
            }
            .withTrailers { ["X-Body-SHA256": Self.hex(hasher.withLock { $0.finalize() })] }
        return response
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { String(format: "%02x", $0) }.joined()
    }
}

/// A network middleware that turns every byte of a body over (each bit flipped).
struct InvertingMiddleware: HTTPMiddleware {
    var name: String { "invert" }

    func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        var response = try await next(request)
        response.body = response.body.map(Self.inverted)
        return response
    }

    static func inverted(_ chunk: Data) -> Data {
        var chunk = chunk
        chunk.withUnsafeMutableBytes { bytes in
            for index in bytes.indices { bytes[index] = ~bytes[index] }
        }
        return chunk
    }
}

@Suite struct BodyMiddlewareTests {
    @Test func aNetworkMiddlewareHashesAStreamedDownloadThatLandsInAFile() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("kept")
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [BodyDigestMiddleware()]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/1000000"), method: .get, session: session)
            cycle.delivery = .download(keepingDownload(in: directory, kept: kept))
            let response = try await cycle.start()
            let expected = SandboxStreams.pattern(0..<1_000_000)
            #expect(response.headers["X-Body-SHA256"] == BodyDigestMiddleware.hex(SHA256.hash(data: expected)))
            #expect(response.data.isEmpty && !response.body.isStream, "the body is in the file, not in memory")
            #expect(try Data(contentsOf: kept) == expected)
        }
    }

    @Test func aNetworkMiddlewareThatRewritesTheBodyRewritesTheFile() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("kept")
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [InvertingMiddleware(), BodyDigestMiddleware()]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/300000"), method: .get, session: session)
            cycle.delivery = .download(keepingDownload(in: directory, kept: kept))
            let response = try await cycle.start()
            let rewritten = InvertingMiddleware.inverted(SandboxStreams.pattern(0..<300_000))
            #expect(try Data(contentsOf: kept) == rewritten)
            // The digest middleware sits below the rewriting one: it saw the bytes as they came.
            #expect(response.headers["X-Body-SHA256"] == BodyDigestMiddleware.hex(SHA256.hash(data: SandboxStreams.pattern(0..<300_000))))
        }
    }

    @Test func aStreamedReadGetsTheBodyAsTheMiddlewareRewroteIt() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [InvertingMiddleware()]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/200000"), method: .get, session: session)
            let body = try await cycle.startStreaming().body
            let read = try await body.collect(upTo: 1 << 20)
            #expect(read == InvertingMiddleware.inverted(SandboxStreams.pattern(0..<200_000)))
        }
    }

    @Test func aBodyBoundForMemoryIsWrappedAsAStreamIsAndLandsWhole() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [InvertingMiddleware(), BodyDigestMiddleware()]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/download/1000"), session: session)
            #expect(response.body.data == InvertingMiddleware.inverted(SandboxStreams.pattern(0..<1000)))
            #expect(response.headers["X-Body-SHA256"] == BodyDigestMiddleware.hex(SHA256.hash(data: SandboxStreams.pattern(0..<1000))))
        }
    }

    // A place the dropped body kept would make the next download wait for ever: a deadline.
    @Test(.timeLimit(.minutes(1))) func aStreamedBodyDroppedByAMiddlewareEndsItsExchangeAndFreesTheQueue() async throws {
        var configuration = HTTPSession.Configuration()
        configuration.maximumActiveRequests = 1
        // A middleware that answers for the body with an empty one, dropping the stream unread.
        configuration.networkMiddleware = [HTTPClosureMiddleware("drop") { request, next in
            var response = try await next(request)
            response.body = HTTPResponseBody(Data())
            return response
        }]
        try await withSandbox(configuration: configuration) { sandbox, session in
            for _ in 0..<3 {
                let cycle = try HTTPCycle(sandbox.url("/download/10000000"), method: .get, session: session)
                let body = try await cycle.startStreaming().body
                #expect(try await body.collect(upTo: 1 << 20).isEmpty)
            }
            try await waitUntil { sandbox.openConnectionCount == 0 }
        }
    }
}

/// A gibibyte through two network middlewares, one rewriting every byte, into a file: memory
/// stays bounded. Heavy: runs alone (`JEWZ_HEAVY_TESTS=1 swift test --filter Heavy`).
@Suite(.enabled(if: heavyTestsEnabled)) struct HeavyBodyMemoryTests {
    @Test func aGibibyteRewrittenOnItsWayToAFileStaysUnder100MiB() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let kept = directory.appendingPathComponent("kept")
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [InvertingMiddleware(), BodyDigestMiddleware()]
        let size: Int64 = 1 << 30
        try await withSandbox(configuration: configuration) { sandbox, session in
            try resetPeakResidentSize()
            let before = peakResidentSize() ?? 0
            let cycle = try HTTPCycle(sandbox.url("/download/\(size)"), method: .get, session: session)
            cycle.delivery = .download(keepingDownload(in: directory, kept: kept))
            _ = try await cycle.start()
            let peak = try #require(peakResidentSize())
            #expect(peak - before < 100 << 20, "peak grew by \(peak - before) bytes")
        }
        // Every MiB of the file is the pattern turned over, from its offset on.
        let file = try FileHandle(forReadingFrom: kept)
        defer { try? file.close() }
        var offset: Int64 = 0
        var mismatches: [Int64] = []
        while let chunk = try file.read(upToCount: 1 << 20), !chunk.isEmpty {
            let end = offset + Int64(chunk.count)
            if chunk != InvertingMiddleware.inverted(SandboxStreams.pattern(offset..<end)) { mismatches.append(offset) }
            offset = end
        }
        #expect(offset == size)
        #expect(mismatches.isEmpty, "chunks that differ start at \(mismatches.prefix(5))")
    }
}
