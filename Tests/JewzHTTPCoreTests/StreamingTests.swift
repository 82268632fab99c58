import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

@Suite struct StreamingTests {
    @Test(arguments: TransportKind.allCases) func aBodyArrivesAsChunksInOrder(transport: TransportKind) async throws {
        let size: Int64 = (8 << 20) + 5
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/\(size)"), method: .get, session: session)
            let opened = try await cycle.startStreaming()
            let (response, body) = (opened.head, opened.body)
            #expect(response.statusCode == 200)
            #expect(response.headers["Content-Length"] == "\(size)")
            var offset: Int64 = 0
            var chunks = 0
            var intact = true
            for try await chunk in body {
                intact = intact && chunk == SandboxStreams.pattern(offset..<offset + Int64(chunk.count))
                offset += Int64(chunk.count)
                chunks += 1
            }
            #expect(intact)
            #expect(offset == size)
            #expect(chunks > 1)
            #expect(cycle.response?.statusCode == 200)
        }
    }

    @Test func collectingABodyKeepsToItsLimit() async throws {
        try await withSandbox { sandbox, session in
            let whole = try await HTTPCycle(sandbox.url("/download/300000"), method: .get, session: session).startStreaming()
            #expect(try await whole.body.collect(upTo: 300_000) == SandboxStreams.pattern(0..<300_000))
            let capped = try await HTTPCycle(sandbox.url("/download/300000"), method: .get, session: session).startStreaming()
            guard let error = await httpError({ _ = try await capped.body.collect(upTo: 1000) }), error.code == .responseTooLarge else {
                Issue.record("expected responseTooLarge")
                return
            }
            #expect(error.description.contains("larger than 1000 bytes"))
        }
    }

    @Test(arguments: TransportKind.allCases) func aFailingStatusThrowsBeforeTheBody(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/status/404"), method: .get, session: session)
            guard let error = await httpError({ _ = try await cycle.startStreaming() }), error.code == .statusCode, error.statusCode == 404 else {
                Issue.record("expected status 404")
                return
            }
            #expect(cycle.response?.text == "status 404")
        }
    }

    @Test(arguments: TransportKind.allCases) func aDropMidBodyEndsTheSequenceWithTheError(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let cycle = try HTTPCycle(sandbox.url("/download/4000000?drop=1500000"), method: .get, session: session)
            let body = try await cycle.startStreaming().body
            var received = 0
            let error = await httpError {
                for try await chunk in body { received += chunk.count }
            }
            guard let error = error, error.code == .connectionLost else {
                Issue.record("expected a lost connection, got \(String(describing: error))")
                return
            }
            #expect(received <= 1_500_000)
        }
    }

    // The default transport only: URLSession on Linux has no working flow control, so it would
    // pull hundreds of megabytes before the cancellation lands (see ARCHITECTURE.md).
    @Test(arguments: [TransportKind.asyncHTTPClient]) func droppingTheBodyStopsTheTransfer(transport: TransportKind) async throws {
        try await withSandbox(transport: transport) { sandbox, session in
            let ends = AsyncStream<String>.makeStream()
            try session.update { $0.eventMonitors = [EndMonitor(ends.continuation)] }
            let cycle = try HTTPCycle(sandbox.url("/download/\(1 << 30)"), method: .get, session: session)
            var body: HTTPResponseBody? = try await cycle.startStreaming().body
            var iterator = body?.makeAsyncIterator()
            #expect(try await iterator?.next() != nil)
            body = nil
            iterator = nil
            // The run ends, cancelled, instead of pulling the remaining gigabyte.
            var events = ends.stream.makeAsyncIterator()
            #expect(await events.next() == "cancelled")
        }
    }

    @Test func cancellingTheReadingTaskEndsItsReadWithCancellationError() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/download/\(1 << 30)")))
            let (started, signal) = AsyncStream<Void>.makeStream()
            let reader = Task {
                let response = try await session.stream(HTTPRequest(url: url))
                for try await _ in response.body { signal.yield() }
            }
            for await _ in started { break }
            reader.cancel()
            // As the iterator's documentation says: not the body's own abandonment.
            await #expect(throws: CancellationError.self) { try await reader.value }
        }
    }
}

/// Reports how each run ended.
struct EndMonitor: HTTPEventMonitor {
    let continuation: AsyncStream<String>.Continuation

    init(_ continuation: AsyncStream<String>.Continuation) {
        self.continuation = continuation
    }

    func call(_ call: HTTPCall, didEmit event: HTTPEvent) {
        switch event {
        case .failed(let error, _): continuation.yield("failed: \(error)")
        case .cancelled: continuation.yield("cancelled")
        case .processed: continuation.yield("processed")
        default: break
        }
    }
}
