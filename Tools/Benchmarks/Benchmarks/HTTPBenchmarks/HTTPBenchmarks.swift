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
// full request path with the defaults a user gets (the umbrella's processors, `HTTPSession()`)
// beside raw AsyncHTTPClient on the same server, and the plain GETs beside URLSession too.

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

    let hello = base + BenchPath.hello
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
    let items = base + BenchPath.items
    Benchmark("GET 2 KB JSON → [Item]: Jewzruxin HTTPCycle.get(decoding:)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await HTTPCycle.get(items, decoding: [Item].self, session: session))
        }
    }
    Benchmark("GET 2 KB JSON → [Item]: Jewzruxin HTTPCycle.get, then response.decode", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await HTTPCycle.get(items, session: session).decode([Item].self))
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
    let download = base + BenchPath.download
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
