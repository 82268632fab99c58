import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// A one-shot body of `text`, delivered in two chunks.
func oneShot(_ text: String, knownLength: Bool = false) -> HTTPRequestBody {
    let (chunks, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
    let bytes = Data(text.utf8)
    continuation.yield(bytes.prefix(bytes.count / 2))
    continuation.yield(bytes.dropFirst(bytes.count / 2))
    continuation.finish()
    return .stream(HTTPBodyStream(length: knownLength ? bytes.count : nil, chunks))
}

@Suite struct RequestBodyTests {
    @Test(arguments: TransportKind.allCases) func fileBodiesAreStreamedWithTheirLength(transport: TransportKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-upload-\(UUID().uuidString)")
        // Not a whole number of the transport's buffers: the last read is short.
        let content = Data((0..<(3 << 20) + 12_345).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try content.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await withSandbox(transport: transport) { sandbox, session in
            let echoed = try HTTPCycle(sandbox.url("/dumpupload/"), method: .post, session: session)
            echoed.request.body = .file(file)
            try await echoed.start()
            #expect(echoed.response?.data == content)
            let inspected = try HTTPCycle(sandbox.url("/inspect"), method: .put, session: session)
            inspected.request.body = .file(file)
            try await inspected.start()
            #expect(try Inspection(inspected.response).values("Content-Length") == ["\(content.count)"])
        }
    }

    @Test(arguments: TransportKind.allCases, [false, true])
    func segmentedBodiesAreSentWholeWithTheirLength(transport: TransportKind, watched: Bool) async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let large = directory.appendingPathComponent("large.bin")
        let small = directory.appendingPathComponent("small.bin")
        // Pieces larger than the transport's buffers and not a whole number of them, an empty one between.
        let largeBytes = Data((0..<(1 << 20) + 4_321).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let inMemory = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try largeBytes.write(to: large)
        try Data("tail".utf8).write(to: small)
        let segments: [HTTPBodySegment] = [.data(Data("head".utf8)), .file(large), .data(Data()), .data(inMemory), .file(small)]
        let expected = Data("head".utf8) + largeBytes + inMemory + Data("tail".utf8)
        let progress = ProgressLog()
        try await withSandbox(transport: transport) { sandbox, session in
            let echoed = try HTTPCycle(sandbox.url("/dumpupload/"), method: .post, session: session)
            echoed.request.body = .segments(segments)
            if watched { echoed.options.didSendBodyData = { bytes, total, length in progress.record(bytes, total, length) } }
            #expect(try await echoed.start().data == expected)
            let inspected = try HTTPCycle(sandbox.url("/inspect"), method: .put, session: session)
            inspected.request.body = .segments(segments)
            try await inspected.start()
            #expect(try Inspection(inspected.response).values("Content-Length") == ["\(expected.count)"])
        }
        #expect(progress.isConsistent())
        #expect(progress.all.last?.total == (watched ? Int64(expected.count) : nil))
    }

    @Test func aMissingFileAmongSegmentsIsAClearError() async throws {
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/dumpupload/"), method: .post, session: session)
            cycle.request.body = .segments([.data(Data("head".utf8)), .file(URL(fileURLWithPath: "/nonexistent/jewz-part"))])
            let error = await httpError { try await cycle.start() }
            #expect(error?.code == .unreadableBody)
            #expect(error?.description.contains("/nonexistent/jewz-part") == true)
        }
    }

    @Test func aMissingFileIsAClearError() async throws {
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/dumpupload/"), method: .post, session: session)
            cycle.request.body = .file(URL(fileURLWithPath: "/nonexistent/jewz"))
            guard let error = await httpError({ try await cycle.start() }), error.code == .unreadableBody else {
                Issue.record("expected unreadableBody")
                return
            }
            #expect(error.description.contains("/nonexistent/jewz"))
        }
    }

    @Test func streamBodiesAreSentChunkedOrWithTheirLength() async throws {
        try await withSandbox { sandbox, session in
            for known in [false, true] {
                let cycle = try HTTPCycle(sandbox.url("/inspect"), method: .post, session: session)
                cycle.request.body = oneShot("Hello, streaming world", knownLength: known)
                try await cycle.start()
                let inspection = try Inspection(cycle.response)
                #expect(inspection.body == "Hello, streaming world")
                #expect(inspection.values("Transfer-Encoding") == (known ? [] : ["chunked"]))
            }
        }
    }

    @Test func aOneShotBodyIsNeverRetried() async throws {
        try await withSandbox { sandbox, session in
            try session.update { $0.retryPolicy = quickPolicy() }
            let streamed = try HTTPCycle(sandbox.url("/counter"), method: .put, parameters: ["key": "stream", "fail": 1], session: session)
            streamed.request.body = oneShot("payload")
            guard let error = await httpError({ try await streamed.start() }), error.code == .statusCode, error.statusCode == 503 else {
                Issue.record("expected the 503 to stand")
                return
            }
            #expect(streamed.retryCount == 0)
            let data = try HTTPCycle(sandbox.url("/counter"), method: .put, parameters: ["key": "data", "fail": 1], session: session)
            data.request.data = Data("payload".utf8)
            try await data.start()
            #expect(data.retryCount == 1)
        }
    }

    @Test func restartingWithAUsedOneShotBodyFailsClearly() async throws {
        try await withSandbox { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/dumpupload/"), method: .post, session: session)
            cycle.request.body = oneShot("once")
            try await cycle.start()
            #expect(cycle.response?.text == "once")
            guard let error = await httpError({ try await cycle.start() }), error.code == .bodyNotReplayable else {
                Issue.record("expected bodyNotReplayable")
                return
            }
        }
    }

    @Test func aRedirectThatKeepsTheBodyNeverResendsAOneShotBody() async throws {
        try await withSandbox { sandbox, session in
            let replayable = try HTTPCycle(sandbox.url("/redirect/1"), method: .post, parameters: ["status": 307], session: session)
            replayable.request.data = Data("kept".utf8)
            try await replayable.start()
            #expect(replayable.response?.text == "kept")
            let streamed = try HTTPCycle(sandbox.url("/redirect/1"), method: .post, parameters: ["status": 307], session: session)
            streamed.request.body = oneShot("lost")
            guard let error = await httpError({ try await streamed.start() }), error.code == .bodyNotReplayable else {
                Issue.record("expected bodyNotReplayable")
                return
            }
        }
    }

    @Test(arguments: TransportKind.allCases) func aRedirectThatKeepsTheBodyResendsAFile(transport: TransportKind) async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body.txt")
        try Data("sent twice".utf8).write(to: file)
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/redirect/1"), method: .post, parameters: ["status": 307], session: session)
            cycle.request.body = .file(file)
            try await cycle.start()
            #expect(cycle.response?.statusCode == 200)
            #expect(cycle.response?.text == "sent twice")
        }
    }

    @Test func aChallengeIsNotAnsweredWithAOneShotBody() async throws {
        try await withSandbox { sandbox, session in
            let basic = ChallengeAnsweringBasic(user: "test", password: "12345")
            let streamed = try HTTPCycle(sandbox.url("/hello_with_basic_auth"), method: .post, options: .init(authentications: [basic]), session: session)
            streamed.request.body = oneShot("secret")
            guard let error = await httpError({ try await streamed.start() }), error.code == .statusCode, error.statusCode == 401 else {
                Issue.record("expected the 401 to stand")
                return
            }
            let data = try HTTPCycle(sandbox.url("/hello_with_basic_auth"), method: .post, options: .init(authentications: [basic]), session: session)
            data.request.data = Data("secret".utf8)
            try await data.start()
            #expect(data.response?.text == "Hello World")
        }
    }
}
