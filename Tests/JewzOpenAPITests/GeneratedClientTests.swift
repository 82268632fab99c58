import Crypto
import Foundation
import HTTPTypes
import JewzHTTPCore
import JewzLocking
import JewzOpenAPI
import JewzSandbox
import JewzSandboxClient
import JewzTestSupport
import OpenAPIRuntime
import Testing

/// A client generated from the Sandbox's own document calls every operation through
/// `HTTPSessionTransport`, with the session's features applying to each call.
@Suite struct GeneratedClientTests {
    private func withClient(
        _ configuration: HTTPSession.Configuration = .init(), middlewares: [any ClientMiddleware] = [],
        _ body: (Client, Sandbox) async throws -> Void
    ) async throws {
        try await withSandbox(configuration: configuration) { sandbox, session in
            let url = try #require(URL(string: sandbox.baseURL))
            try await body(Client(serverURL: url, transport: HTTPSessionTransport(session: session), middlewares: middlewares), sandbox)
        }
    }

    @Test func theGeneratedCodeIsThatOfTodaysDocument() {
        let document = SandboxOpenAPI.document(server: "http://127.0.0.1:8080")
        let digest = SHA256.hash(data: Data(document.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(digest == GeneratedFrom.documentSHA256, "the Sandbox's document changed: run Tools/SandboxClient/regenerate.sh")
    }

    @Test func everyOperationIsCalledThroughTheSession() async throws {
        try await withClient { client, _ in
            let sample = try await client.sample().ok.body.json
            #expect(sample.name == "Jewzruxin")
            #expect(sample.items.map(\.title) == ["Hello", "Wörld"])
            let items = try await client.items(path: .init(count: 3)).ok.body.json
            #expect(items.map(\.id) == [0, 1, 2])
            #expect(items[1].price == 1.25)
            let seen = try await client.inspect(query: .init(q: "a b", tags: ["x", "y"], pageSize: 5)).ok.body.json
            #expect(seen.method == "GET")
            #expect(seen.uri == "/inspect?q=a%20b&tags=x&tags=y&page-size=5")
            #expect(try await client.entry(path: .init(key: "generated"), query: .init(_type: .json)).ok.body.json.hit == 1)
            #expect(try await client.entry(path: .init(key: "generated"), query: .init(_type: .json)).ok.body.json.hit == 2)
            guard case .default(let statusCode, let teapot) = try await client.status(path: .init(code: 418)) else {
                Issue.record("a 418 is the document's default response")
                return
            }
            #expect(statusCode == 418)
            #expect(try await String(collecting: teapot.body.plainText, upTo: 100) == "status 418")
            let echoed = try await client.upload(body: .binary(HTTPBody("hello"))).ok.body.binary
            #expect(try await String(collecting: echoed, upTo: 100) == "hello")
            let fetched = try await client.fetch(path: .init(size: 1000)).ok.body.binary
            #expect(try await Data(collecting: fetched, upTo: 1000) == SandboxStreams.pattern(0..<1000))
            let sunk = try await client.sink(body: .binary(HTTPBody("hello"))).ok.body.json
            #expect(sunk.length == 5)
            #expect(sunk.contentType == "application/octet-stream")
        }
    }

    @Test func theSessionsFeaturesAndTheClientsMiddlewareBothApply() async throws {
        let exchanges = Counter()
        var configuration = HTTPSession.Configuration()
        configuration.middleware = [HTTPHeaderMiddleware(["X-Session": "jewz"])]
        configuration.networkMiddleware = [HTTPClosureMiddleware("count") { request, next in
            _ = exchanges.advance(by: 1, upTo: .max)
            return try await next(request)
        }]
        configuration.retryPolicy.baseDelay = .milliseconds(5)
        configuration.retryPolicy.jitter = 0
        configuration.retryPolicy.maximumRetryCount = 2
        try await withClient(configuration, middlewares: [ClientHeader(name: "X-Generated", value: "openapi")]) { client, _ in
            let seen = try await client.inspect().ok.body.json
            let names = Set(seen.headers.compactMap { $0.first?.lowercased() })
            #expect(names.isSuperset(of: ["x-session", "x-generated"]), "\(names)")
            // The session retries a 503 before the client sees it: three exchanges, one answer.
            guard case .default(let code, _) = try await client.status(path: .init(code: 503)) else {
                Issue.record("a 503 is a response")
                return
            }
            #expect(code == 503)
            #expect(exchanges.current == 4)
        }
    }

    @Test func aStatusIsTheClientsToHandleAndAFailureKeepsItsTypedError() async throws {
        let session = HTTPSession(configuration: .init { $0.retryPolicy = .never; $0.logger = quietLogger })
        try await withRefusingPort { port in
            let client = Client(serverURL: try #require(URL(string: "http://127.0.0.1:\(port)")), transport: HTTPSessionTransport(session: session))
            let error = await #expect(throws: ClientError.self) { try await client.sample() }
            #expect((error?.underlyingError as? HTTPError)?.code == .connectionFailed)
        }
        try await session.shutdown()
    }

    @Test func largeBodiesStreamBothWays() async throws {
        let size: Int64 = 32 << 20
        try await withClient { client, _ in
            var received: Int64 = 0
            var intact = true
            for try await chunk in try await client.fetch(path: .init(size: size)).ok.body.binary {
                intact = intact && Data(chunk) == SandboxStreams.pattern(received..<received + Int64(chunk.count))
                received += Int64(chunk.count)
            }
            #expect(received == size)
            #expect(intact)
            // An upload of unknown length goes out as it is produced.
            let produced = Counter()
            let chunks = AsyncThrowingStream<ArraySlice<UInt8>, any Error>(unfolding: {
                let offset = produced.advance(by: 1 << 20, upTo: size)
                return offset.map { ArraySlice(SandboxStreams.pattern($0..<$0 + (1 << 20))) }
            })
            let sunk = try await client.sink(body: .binary(HTTPBody(chunks, length: .unknown))).ok.body.json
            #expect(sunk.length == size)
        }
    }
}

/// The generated client's own middleware: a header on every call.
private struct ClientHeader: ClientMiddleware {
    let name: String
    let value: String

    func intercept(
        _ request: HTTPTypes.HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPTypes.HTTPRequest, HTTPBody?, URL) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPTypes.HTTPResponse, HTTPBody?) {
        var request = request
        if let field = HTTPField.Name(name) { request.headerFields[field] = value }
        return try await next(request, body, baseURL)
    }
}

/// Hands out offsets of a body being produced, until its size; counts calls with a step of 1.
private final class Counter: Sendable {
    private let next = Mutex<Int64>(0)

    /// The next offset: what the steps so far add up to.
    var current: Int64 { next.withLock { $0 } }

    func advance(by step: Int64, upTo size: Int64) -> Int64? {
        next.withLock { offset in
            guard offset < size else { return nil }
            defer { offset += step }
            return offset
        }
    }
}

/// A gibibyte each way through a generated client stays under 100 MiB of this process's peak
/// memory (the in-process Sandbox holds a chunk at a time). Heavy: runs alone
/// (`JEWZ_HEAVY_TESTS=1 swift test --filter Heavy`, as `.ci/run` does).
@Suite(.enabled(if: heavyTestsEnabled)) struct HeavyGeneratedClientTransferTests {
    @Test func aGibibyteEachWayStaysUnder100MiB() async throws {
        let size: Int64 = 1 << 30
        try await withSandbox { sandbox, session in
            let client = Client(serverURL: try #require(URL(string: sandbox.baseURL)), transport: HTTPSessionTransport(session: session))
            try resetPeakResidentSize()
            let before = try #require(peakResidentSize())
            var received: Int64 = 0
            for try await chunk in try await client.fetch(path: .init(size: size)).ok.body.binary { received += Int64(chunk.count) }
            let chunk = ArraySlice(SandboxStreams.pattern(0..<(1 << 20)))
            let produced = Counter()
            let chunks = AsyncThrowingStream<ArraySlice<UInt8>, any Error>(unfolding: {
                produced.advance(by: 1 << 20, upTo: size).map { _ in chunk }
            })
            let sunk = try await client.sink(body: .binary(HTTPBody(chunks, length: .known(size)))).ok.body.json
            let peak = try #require(peakResidentSize())
            #expect(received == size)
            #expect(sunk.length == size)
            #expect(peak - before < 100 << 20, "peak RSS grew by \(Double(peak - before) / Double(1 << 20)) MiB")
            print("generated client, 1 GiB each way: peak RSS \(peak >> 20) MiB (\((peak - before) >> 20) MiB above the start)")
        }
    }
}
