import AsyncHTTPClient
import Foundation
import NIOPosix

/// `RAW_BENCH=1`: what `jewz bench URL -n REQUESTS -c CONCURRENCY` does, on raw AsyncHTTPClient
/// used as its README shows (one shared client, its pool as wide as the concurrency, `execute`
/// + `collect`), printed as the JSON line `jewz bench --json` prints: the other side of
/// Tools/Benchmarks/jewz-bench.
func rawBench(_ url: String) async throws {
    let count = max(ProcessInfo.processInfo.environment["REQUESTS"].flatMap { Int($0) } ?? 10_000, 1)
    let concurrency = max(ProcessInfo.processInfo.environment["CONCURRENCY"].flatMap { Int($0) } ?? 1, 1)
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = concurrency
    let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    let get = Contender(name: "raw AsyncHTTPClient") {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
    }
    let sample = try await measure(get, count: count, concurrency: concurrency)
    print(String(format: "{\"requests_per_second\": %.1f}", Double(count) / sample.seconds))
    try await client.shutdown()
}
