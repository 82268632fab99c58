import Foundation
import Hummingbird
import Logging
import Synchronization

/// An upstream the gateway calls, run in the test process on loopback: the catalog
/// (`/products/{id}`, cacheable for a minute; an id `slow-…` takes a second) and the price
/// service (`/prices/{id}`) in one server. It counts the requests it answered.
final class Upstream: Sendable {
    let port: Int
    private let served = Atomic(0)
    private let arrivals = Atomic(0)
    private let running = Mutex<Task<Void, any Error>?>(nil)

    var url: String { "http://127.0.0.1:\(port)" }
    /// How many requests it has answered, across restarts.
    var answered: Int { served.load(ordering: .relaxed) }
    /// How many requests have reached it, answered or not.
    var arrived: Int { arrivals.load(ordering: .relaxed) }

    private init(port: Int) {
        self.port = port
    }

    /// An upstream on a port the system picks.
    static func start() async throws -> Upstream {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Self.serve(port: 0, counting: nil, reportingPortTo: continuation)
        guard let port = try await firstPort(ports, of: task) else { throw UpstreamError.didNotStart }
        let upstream = Upstream(port: port)
        task.cancel()
        _ = try? await task.value
        try await upstream.restart()
        return upstream
    }

    /// Stops answering: the listener and every connection close, as when the process dies.
    func stop() async {
        let task = running.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        _ = try? await task?.value
    }

    /// Answers again on the same port.
    func restart() async throws {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Self.serve(port: port, counting: self, reportingPortTo: continuation)
        guard try await Self.firstPort(ports, of: task) == port else { throw UpstreamError.didNotStart }
        running.withLock { $0 = task }
    }

    private static func firstPort(_ ports: AsyncStream<Int>, of task: Task<Void, any Error>) async throws -> Int? {
        try await withDeadline(.seconds(30)) {
            for await port in ports { return port }
            _ = try await task.value
            return nil
        }
    }

    private static func serve(port: Int, counting upstream: Upstream?, reportingPortTo ports: AsyncStream<Int>.Continuation) -> Task<Void, any Error> {
        let router = Router()
        router.get("products/:id") { request, context -> Response in
            let id = try context.parameters.require("id")
            upstream?.arrivals.add(1, ordering: .relaxed)
            if id.hasPrefix("slow-") { try await Task.sleep(for: .seconds(1)) }
            upstream?.served.add(1, ordering: .relaxed)
            if id == "missing" { return Response(status: .notFound) }
            return json(#"{"id": "\#(id)", "name": "Product \#(id)"}"#, cacheControl: "max-age=60")
        }
        router.get("prices/:id") { request, context -> Response in
            let id = try context.parameters.require("id")
            upstream?.served.add(1, ordering: .relaxed)
            return json(#"{"id": "\#(id)", "price": 9.5}"#, cacheControl: "no-store")
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                ports.yield(channel.localAddress?.port ?? -1)
                ports.finish()
            },
            // Stopped by cancelling, which it logs as an error.
            logger: Logger(label: "upstream", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        return Task {
            defer { ports.finish() }
            try await app.run()
        }
    }

    private static func json(_ text: String, cacheControl: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = cacheControl
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

enum UpstreamError: Error {
    case didNotStart
}
