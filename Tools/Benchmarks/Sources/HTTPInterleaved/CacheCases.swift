import Foundation
import Jewzruxin

/// `CACHE=1`: a fresh hit of the memory cache and of the disk cache, each through the cycle
/// (`HTTPCycle.get` on a session whose configuration has the cache), against the network GET
/// of the same URL on a session without one; and a disk hit of a 1 MiB body, which the store
/// hands up as a stream read from its file and the run gathers into memory, and a 1 KiB
/// `Range` of it, which the store reads from the file at its offset. The URLs answer
/// `Cache-Control: max-age=3600`, and each cached session asks once before measuring, so every
/// measured request is a hit.
func cacheCases(cached url: String, large: String) async throws -> (cases: [Case], sessions: [HTTPSession], directory: URL) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-bench-cache-\(getpid())")
    func session(_ cache: HTTPCache?) async throws -> HTTPSession {
        var configuration = HTTPSession.Configuration()
        configuration.cache = cache
        let session = HTTPSession(configuration: configuration)
        try await HTTPCycle.get(url, session: session)
        try await HTTPCycle.get(large, session: session)
        return session
    }
    let memory = try await session(HTTPCache(store: MemoryCacheStore()))
    let disk = try await session(try HTTPCache(directory: directory))
    let network = try await session(nil)
    let networkGET = Contender(name: "HTTPCycle.get, network") { try await HTTPCycle.get(url, session: network) }
    // More requests per block than the network cases: a hit takes microseconds.
    func cases(_ name: String, _ ours: Contender) -> [Case] {
        [(name + " c=1", 1, 5_000 * blockScale, ours, networkGET), (name + " c=64", 64, 32_000 * blockScale, ours, networkGET)]
    }
    let cases = cases("fresh memory hit vs network", Contender(name: "HTTPCycle.get, memory cache") {
        let response = try await HTTPCycle.get(url, session: memory)
        guard response.source == .cache else { throw BenchFailure("not a hit: \(url)") }
    }) + cases("fresh disk hit vs network", Contender(name: "HTTPCycle.get, disk cache") {
        let response = try await HTTPCycle.get(url, session: disk)
        guard response.source == .cache else { throw BenchFailure("not a hit: \(url)") }
    })
    let largeHit = Contender(name: "HTTPCycle.get, disk cache, 1 MiB") {
        let response = try await HTTPCycle.get(large, session: disk)
        guard response.source == .cache, response.data.count == 1 << 20 else { throw BenchFailure("not a 1 MiB hit: \(large)") }
    }
    let largeGET = Contender(name: "HTTPCycle.get, network, 1 MiB") { try await HTTPCycle.get(large, session: network) }
    let largeCases: [Case] = [
        ("fresh 1 MiB disk hit vs network c=1", 1, 500 * blockScale, largeHit, largeGET),
        ("fresh 1 MiB disk hit vs network c=64", 64, 2_000 * blockScale, largeHit, largeGET),
    ]
    let range: HTTPHeaderFields = ["Range": "bytes=4096-5119"]
    let rangeHit = Contender(name: "HTTPCycle.get, disk cache, 1 KiB range") {
        let response = try await HTTPCycle.get(large, headers: range, session: disk)
        guard response.source == .cache, response.statusCode == 206, response.data.count == 1024 else {
            throw BenchFailure("not a 1 KiB range of a hit: \(large)")
        }
    }
    let rangeGET = Contender(name: "HTTPCycle.get, network, 1 KiB range") {
        let response = try await HTTPCycle.get(large, headers: range, session: network)
        guard response.statusCode == 206 else { throw BenchFailure("no range from the origin: \(large)") }
    }
    let rangeCases: [Case] = [
        ("1 KiB range of a disk hit vs network c=1", 1, 5_000 * blockScale, rangeHit, rangeGET),
        ("1 KiB range of a disk hit vs network c=64", 64, 32_000 * blockScale, rangeHit, rangeGET),
    ]
    return (cases + largeCases + rangeCases, [memory, disk, network], directory)
}
