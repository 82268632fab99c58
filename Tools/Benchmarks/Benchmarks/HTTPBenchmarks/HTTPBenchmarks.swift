import AsyncHTTPClient
import Benchmark
import BenchmarkFixtures
import Foundation
import Jewzruxin
import NIOCore
import NIOPosix

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// End to end against a server that is not the bottleneck (`./run` starts nginx on loopback, or
// the Sandbox without nginx, and passes its base URL in JEWZ_BENCH_URL). Each case runs our
// full HTTPCycle path with the defaults a user gets (`import Jewzruxin`, `HTTPSession()`)
// beside raw AsyncHTTPClient on the same server, and the plain GETs beside URLSession too.

/// The paths every server of `./run` answers.
enum Path {
    static let hello = "/hello/"
    static let items = "/items/27"
    static let download = "/download/104857600"
}

let benchmarks: @Sendable () -> Void = {
    guard let base = ProcessInfo.processInfo.environment["JEWZ_BENCH_URL"] else {
        print("HTTPBenchmarks: set JEWZ_BENCH_URL to a server's base URL (./run starts nginx and sets it)")
        return
    }
    let metrics: [BenchmarkMetric] = [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident]
    let configuration = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(5))

    // Ours: the session defaults a user gets.
    let session = HTTPSession()
    // Raw AsyncHTTPClient, its pool sized to the largest concurrency measured.
    var rawConfiguration = HTTPClient.Configuration()
    rawConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    let raw = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: rawConfiguration)
    // FoundationNetworking's URLSession, allowed as many connections.
    let urlSessionConfiguration = URLSessionConfiguration.default
    urlSessionConfiguration.httpMaximumConnectionsPerHost = 64
    let urlSession = URLSession(configuration: urlSessionConfiguration)

    let hello = base + Path.hello
    let cycleGET: @Sendable () async throws -> Void = {
        try await HTTPCycle.get(hello, session: session)
    }
    let rawGET: @Sendable () async throws -> Void = {
        let response = try await raw.execute(HTTPClientRequest(url: hello), timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
    }
    let urlSessionGET: @Sendable () async throws -> Void = {
        guard let url = URL(string: hello) else { throw URLError(.badURL) }
        _ = try await urlSession.data(from: url)
    }

    for concurrency in [1, 64] {
        // One benchmark iteration is `concurrency` requests at once.
        let batch: @Sendable (@escaping @Sendable () async throws -> Void) async throws -> Void = { get in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency { group.addTask { try await get() } }
                try await group.waitForAll()
            }
        }
        let name = "GET /hello c=\(concurrency) (\(concurrency) per op)"
        Benchmark("\(name): Jewzruxin HTTPCycle", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { try await batch(cycleGET) }
        }
        Benchmark("\(name): raw AsyncHTTPClient (baseline)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { try await batch(rawGET) }
        }
        Benchmark("\(name): URLSession (reference)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { try await batch(urlSessionGET) }
        }
    }

    // A 2 KB JSON body decoded to a model, as a user writes it: typed, and (second) through
    // the registry's JSONValue tree first, which parses the body twice.
    let items = base + Path.items
    Benchmark("GET 2 KB JSON → [Item]: Jewzruxin HTTPCycle.get(decoding:)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await HTTPCycle.get(items, decoding: [Item].self, session: session))
        }
    }
    Benchmark("GET 2 KB JSON → [Item]: Jewzruxin HTTPCycle.get, then response.decode", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let cycle = try await HTTPCycle.get(items, session: session)
            blackHole(try cycle.response?.decode([Item].self))
        }
    }
    Benchmark("GET 2 KB JSON → [Item]: raw AsyncHTTPClient + JSONDecoder (baseline)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let response = try await raw.execute(HTTPClientRequest(url: items), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            blackHole(try JSONDecoder().decode([Item].self, from: Data(buffer: body)))
        }
    }

    // 100 MB to a file: throughput and the process's peak resident memory.
    let download = base + Path.download
    let downloadConfiguration = Benchmark.Configuration(metrics: metrics, maxDuration: .seconds(10), maxIterations: 20)
    Benchmark("Download 100 MB to a file: Jewzruxin HTTPCycle.download", configuration: downloadConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            try await HTTPCycle.download(download, session: session) { _, location in
                blackHole(location)
            }
        }
    }
    Benchmark("Download 100 MB to a file: raw AsyncHTTPClient + write(2) (baseline)", configuration: downloadConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            try await rawDownload(download, client: raw)
        }
    }
}

/// Streams a response body into a temporary file with write(2), the least a caller of raw
/// AsyncHTTPClient would write, then removes the file.
func rawDownload(_ url: String, client: HTTPClient) async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString)").path
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { throw POSIXError(.EACCES) }
    defer {
        close(descriptor)
        unlink(path)
    }
    let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
    for try await buffer in response.body {
        try buffer.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                guard written > 0 else { throw POSIXError(.EIO) }
                offset += written
            }
        }
    }
}
