import Foundation
import Hummingbird
import Logging
import Synchronization

/// An upstream the gateway calls, run in the test process on loopback: the catalog
/// (`/products/{id}`, cacheable for a minute; an id `slow-…` takes a second) and the price
/// service (`/prices/{id}`) in one server. It counts the requests it answered.
final class Upstream: Sendable {
    /// The port the system picked when it first listened; it listens there again after a stop.
    private let listeningPort = Atomic(0)
    private let served = Atomic(0)
    private let arrivals = Atomic(0)
    private let refusals = Atomic(0)
    /// The most price answers it gives in any second.
    private let limit: Int
    private let answeredAt = Mutex<[ContinuousClock.Instant]>([])
    private let running = Mutex<Task<Void, any Error>?>(nil)

    var port: Int { listeningPort.load(ordering: .relaxed) }
    var url: String { "http://127.0.0.1:\(port)" }
    /// How many requests it has answered, across restarts.
    var answered: Int { served.load(ordering: .relaxed) }
    /// How many requests have reached it, answered or not.
    var arrived: Int { arrivals.load(ordering: .relaxed) }
    /// How many requests it refused with 429.
    var refused: Int { refusals.load(ordering: .relaxed) }

    private init(limit: Int) {
        self.limit = limit
    }

    /// Whether a price answer fits in the last second's limit; it is counted when it does.
    private func admits() -> Bool {
        answeredAt.withLock { log in
            let now = ContinuousClock.now
            log.removeAll { now - $0 >= .seconds(1) }
            guard log.count < limit else { return false }
            log.append(now)
            return true
        }
    }

    /// An upstream on a port the system picks, answering at most `limit` price requests a second.
    static func start(limit: Int = 1_000_000) async throws -> Upstream {
        let upstream = Upstream(limit: limit)
        try await upstream.listen(on: 0)
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
        try await listen(on: port)
    }

    private func listen(on requested: Int) async throws {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Self.serve(port: requested, counting: self, reportingPortTo: continuation)
        guard let port = try await Self.firstPort(ports, of: task), requested == 0 || port == requested else {
            throw UpstreamError.didNotStart
        }
        listeningPort.store(port, ordering: .relaxed)
        running.withLock { $0 = task }
    }

    private static func firstPort(_ ports: AsyncStream<Int>, of task: Task<Void, any Error>) async throws -> Int? {
        try await withDeadline(.seconds(30)) {
            for await port in ports { return port }
            _ = try await task.value
            return nil
        }
    }

    private static func serve(port: Int, counting upstream: Upstream, reportingPortTo ports: AsyncStream<Int>.Continuation) -> Task<Void, any Error> {
        let router = Router()
        router.get("products/:id") { request, context -> Response in
            let id = try context.parameters.require("id")
            upstream.arrivals.add(1, ordering: .relaxed)
            if id.hasPrefix("slow-") { try await Task.sleep(for: .seconds(1)) }
            upstream.served.add(1, ordering: .relaxed)
            if id == "missing" { return Response(status: .notFound) }
            return json(#"{"id": "\#(id)", "name": "Product \#(id)"}"#, cacheControl: "max-age=60")
        }
        router.get("prices/:id") { request, context -> Response in
            let id = try context.parameters.require("id")
            // At most `limit` answers in any second; past it, 429 as an API's rate limit does.
            guard upstream.admits() else {
                upstream.refusals.add(1, ordering: .relaxed)
                return Response(status: .tooManyRequests)
            }
            upstream.served.add(1, ordering: .relaxed)
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
