import Foundation
import JewzCache
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz --cache DIR`: a disk cache shared by separate runs of the binary.
@Suite struct CacheOptionTests {
    @Test func aSecondRunIsAnsweredFromTheDiskWithoutTheServer() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        let url = sandbox.url("/cached/cli?cc=max-age=600&etag=v1")
        let first = try await runJewz(["-v", "--cache", directory.path, url])
        #expect(first.status == 0, "\(first.error)")
        #expect(!first.error.contains("answered from the cache"))
        let second = try await runJewz(["-v", "--cache", directory.path, url])
        #expect(second.status == 0)
        #expect(second.output.contains("cli #1"))
        // The answer's origin, then the stages the request went through: it stopped at the cache.
        #expect(second.messages.count == 2, "\(second.error)")
        #expect(second.messages.last == "jewz: through retry → cache", "\(second.error)")
        #expect(second.messages.first?.hasPrefix("jewz: answered from the cache, ") == true, "\(second.error)")
        #expect(second.messages.first?.hasSuffix(" s old, without the network") == true, "\(second.error)")
        #expect(sandbox.router.cacheHits(forKey: "cli") == 1)
        let revalidated = try await runJewz(["-v", "--cache", directory.path, "--cache-policy", "revalidate", url])
        #expect(revalidated.error.contains("confirmed current by the server (304)"), "\(revalidated.error)")
        #expect(sandbox.router.cacheHits(forKey: "cli") == 2)
        try await sandbox.shutdown()
        let offline = try await runJewz(["--cache", directory.path, "--cache-policy", "offline", "--print", "b", url])
        #expect(offline.status == 0, "\(offline.error)")
        #expect(offline.output == "cli #1\n")
        let absent = try await runJewz(["--cache", directory.path, "--cache-policy", "offline", sandbox.url("/cached/other")])
        #expect(absent.status == 5)
        let badPolicy = try await runJewz(["--cache", directory.path, "--cache-policy", "sometimes", url])
        #expect(badPolicy.status == 1)
    }

    @Test func aWriterKilledAtAnyMomentLeavesOnlyWholeEntries() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        let size = 16 << 20
        let urls = (0..<16).map { sandbox.url("/cached/big\($0)?size=\(size)&cc=max-age=600") }
        var killed = 0
        for (round, url) in urls.enumerated() {
            // From before the request to after the write: some runs die mid-write.
            let run = try await runJewz(["--cache", directory.path, "--print", "h", url], timeLimit: .milliseconds(30 + round * 30))
            if run.timedOut { killed += 1 }
        }
        #expect(killed > 0)
        let store = try DiskCacheStore(directory: directory, sizeLimit: 1 << 30)
        var whole = 0
        for url in urls {
            guard let entry = store.response(forKey: "GET " + url) else { continue }
            #expect(entry.body == Data(repeating: UInt8(ascii: "c"), count: size))
            whole += 1
        }
        // Whatever a killed run left in tmp/ is never an entry, and the store still works.
        #expect(store.usage.count == whole)
        let after = try await runJewz(["--cache", directory.path, "--print", "h", urls[0]])
        #expect(after.status == 0, "\(after.error)")
        try await sandbox.shutdown()
    }

    @Test func aLargeDownloadGoesToTheCacheAndBackWithoutMemory() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-cache-large")
        defer { try? FileManager.default.removeItem(at: directory) }
        let size = LargeTransferTests.size
        let url = sandbox.url("/download/\(size)")
        for round in 1...2 {
            let file = directory.appendingPathComponent("download-\(round)")
            let run = try await runJewz(
                ["-v", "--cache", directory.appendingPathComponent("cache").path, "--cache-for", "600",
                 "--cache-size", "\(2 * size >> 20)", "--output", file.path, url],
                environment: ["JEWZ_REPORT_PEAK_MEMORY": "1"])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.error.contains("answered from the cache") == (round == 2), "\(run.error)")
            let written = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber
            #expect(written?.int64Value == size)
            let peak = try #require(run.peakMemory)
            #expect(peak < LargeTransferTests.memoryLimit, "peak RSS \(peak >> 20) MiB in round \(round)")
        }
        try await sandbox.shutdown()
    }
}
