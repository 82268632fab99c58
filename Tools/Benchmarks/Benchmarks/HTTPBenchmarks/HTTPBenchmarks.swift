import AsyncHTTPClient
import Benchmark
import Foundation
import JewzHTTPCore
import NIOCore
import NIOPosix

// GET /hello through the full HTTPCycle path (registry lookup, processors, retry policy,
// queue) beside raw AsyncHTTPClient on the same server, at concurrency 1 and 64. The server is
// JEWZ_BENCH_URL: `./run` starts nginx on loopback for it (or point it at `jewz serve`).
let benchmarks: @Sendable () -> Void = {
    guard let url = ProcessInfo.processInfo.environment["JEWZ_BENCH_URL"] else {
        print("HTTPBenchmarks: set JEWZ_BENCH_URL (./run starts nginx and sets it)")
        return
    }
    print("GET \(url)")
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(5))

    // The session defaults a user gets.
    let session = HTTPSession(processorRegistry: .shared)
    var rawConfiguration = HTTPClient.Configuration()
    rawConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
    let raw = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: rawConfiguration)

    let cycleGET: @Sendable () async -> Void = {
        _ = try? await HTTPCycle.get(url, session: session)
    }
    let rawGET: @Sendable () async -> Void = {
        guard let response = try? await raw.execute(HTTPClientRequest(url: url), timeout: .seconds(30)) else { return }
        _ = try? await response.body.collect(upTo: 1 << 20)
    }

    for concurrency in [1, 64] {
        // One benchmark iteration is `concurrency` requests at once.
        let batch: @Sendable (@escaping @Sendable () async -> Void) async -> Void = { get in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<concurrency { group.addTask { await get() } }
            }
        }
        Benchmark("GET c=\(concurrency) (\(concurrency) requests per op): Jewzruxin HTTPCycle", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { await batch(cycleGET) }
        }
        Benchmark("GET c=\(concurrency) (\(concurrency) requests per op): raw AsyncHTTPClient (baseline)", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { await batch(rawGET) }
        }
    }
}

