import Foundation
import Jewzruxin
import JewzSandbox

/// One kind of work in the soak's mix, each checked for the answer it must give.
enum SoakOperation: String, CaseIterable, Sendable {
    case get
    case post
    case download
    case stream
    case events
    case webSocket
    case cancelMidBody
    case cachedGet

    /// An answer other than the one the Sandbox gives: the request counts as lost.
    struct WrongAnswer: Error, CustomStringConvertible {
        let description: String
    }

    /// Where the soak's work happens, and where its files go.
    struct Context: Sendable {
        let session: HTTPSession
        let sandbox: Sandbox
        let downloads: URL
    }

    func perform(in context: Context, using generator: inout SeededGenerator) async throws {
        let sandbox = context.sandbox
        switch self {
        case .get:
            let response = try await context.session.send(HTTPRequest(url: try url(sandbox.url("/json"))))
            try expect(response.statusCode == 200 && response.json?["name"].string == "Jewzruxin", "GET /json")
        case .post:
            let body = Data((0..<Int.random(in: 1...65_536, using: &generator)).map { UInt8(truncatingIfNeeded: $0) })
            let request = HTTPRequest(
                url: try url(sandbox.url("/dumpupload/")), method: .post, headers: ["Content-Type": "application/octet-stream"], data: body)
            let response = try await context.session.send(request)
            try expect(response.data == body, "POST echoed \(response.data.count) of \(body.count) bytes")
        case .download:
            let size = Int.random(in: 65_536...(4 << 20), using: &generator)
            let file = context.downloads.appendingPathComponent(UUID().uuidString)
            defer { try? FileManager.default.removeItem(at: file) }
            let saved = try await context.session.download(HTTPRequest(url: try url(sandbox.url("/download/\(size)"))), to: file)
            let written = (try FileManager.default.attributesOfItem(atPath: saved.fileURL.path)[.size] as? NSNumber)?.intValue
            try expect(written == size, "download of \(size) bytes wrote \(written ?? -1)")
        case .stream:
            let size = Int.random(in: 1...(2 << 20), using: &generator)
            let response = try await context.session.stream(HTTPRequest(url: try url(sandbox.url("/download/\(size)"))))
            var count = 0
            for try await chunk in response.body { count += chunk.count }
            try expect(count == size, "stream of \(size) bytes read \(count)")
        case .events:
            let key = "soak-\(Int.random(in: 0..<64, using: &generator))"
            let source = HTTPEventSource(url: try url(sandbox.url("/events/\(key)?count=5&retry=10")), session: context.session)
            var received = 0
            for try await _ in source { received += 1 }
            try expect(received == 5, "events: \(received) of 5")
        case .webSocket:
            let text = "soak \(generator.next())"
            let echoed = try await context.session.withWebSocket(to: try url(sandbox.url("/ws/echo"))) { socket in
                try await socket.send(text: text)
                var messages = socket.messages.makeAsyncIterator()
                return try await messages.next()
            }
            guard case .text(let back)? = echoed, back == text else { throw WrongAnswer(description: "WebSocket echoed \(String(describing: echoed))") }
        case .cancelMidBody:
            try await cancelMidBody(context)
        case .cachedGet:
            // 200 keys of 16–64 KiB against a 4 MiB store: entries are evicted all along.
            let key = Int.random(in: 0..<200, using: &generator)
            let size = 16_384 + key * 240
            let response = try await context.session.send(HTTPRequest(url: try url(sandbox.url("/cached/soak-\(key)?cc=max-age%3D600&size=\(size)"))))
            try expect(response.statusCode == 200 && response.data.count == size, "cached GET of \(size) bytes got \(response.data.count)")
        }
    }

    /// Reads the first chunk of an 8 MiB stream, then cancels the task reading it.
    private func cancelMidBody(_ context: Context) async throws {
        let (started, signal) = AsyncStream<Void>.makeStream()
        let reader = Task {
            // However the read ends — a first chunk or an error before it — the wait below ends.
            defer { signal.finish() }
            let response = try await context.session.stream(HTTPRequest(url: try url(context.sandbox.url("/download/\(8 << 20)"))))
            for try await _ in response.body {
                signal.yield()
                signal.finish()
            }
        }
        for await _ in started { break }
        reader.cancel()
        // Ends in a cancellation; when the whole body arrived before the cancel was heard, the
        // operation completed.
        try await reader.value
    }

    private func url(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw WrongAnswer(description: "no URL: \(text)") }
        return url
    }

    private func expect(_ condition: Bool, _ what: @autoclosure () -> String) throws {
        guard condition else { throw WrongAnswer(description: what()) }
    }
}
