import Foundation
import JewzCache
import JewzLocking
import JewzSandbox
import JewzTestSupport

private typealias Step = ScriptedServer.Step
import Testing

/// `jewz --cache DIR`: a disk cache shared by separate runs of the binary.
@Suite struct CacheOptionTests {
    @Test func aSecondRunIsAnsweredFromTheDiskWithoutTheServer() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = sandbox.url("/cached/cli?cc=max-age=600&etag=v1")
        let first = try await runJewz(["-v", "--cache", directory.path, url])
        #expect(first.status == 0, "\(first.error)")
        #expect(!first.error.contains("answered from the cache"))
        let second = try await runJewz(["-v", "--cache", directory.path, url])
        #expect(second.status == 0)
        #expect(second.output.contains("cli #1"))
        // The answer's origin, the stages the request went through (it stopped at the cache),
        // and its one attempt, which the cache answered.
        #expect(second.messages.count == 3, "\(second.error)")
        #expect(second.messages.dropFirst().first == "jewz: through retry → cache", "\(second.error)")
        #expect(second.messages.last?.hasPrefix("jewz: attempt 1: sent at ") == true, "\(second.error)")
        #expect(second.messages.first?.hasPrefix("jewz: answered from the cache, ") == true, "\(second.error)")
        #expect(second.messages.first?.hasSuffix(" s old, without the network") == true, "\(second.error)")
        #expect(sandbox.router.cacheHits(forKey: "cli") == 1)
        let revalidated = try await runJewz(["-v", "--cache", directory.path, "--cache-policy", "revalidate", url])
        #expect(revalidated.error.contains("confirmed current by the server (304)"), "\(revalidated.error)")
        #expect(sandbox.router.cacheHits(forKey: "cli") == 2)
        try await sandbox.shutdown()
        let offline = try await runJewz(["--cache", directory.path, "--cache-policy", "offline", "--print", "b", url])
        #expect(offline.status == 0, "\(offline.error)")
        #expect(offline.output == "cli #1")
        let absent = try await runJewz(["--cache", directory.path, "--cache-policy", "offline", sandbox.url("/cached/other")])
        #expect(absent.status == 5)
        let badPolicy = try await runJewz(["--cache", directory.path, "--cache-policy", "sometimes", url])
        #expect(badPolicy.status == 1)
    }

    /// A `Range` item is answered by a later run from what an earlier one stored: a piece of
    /// the whole body, then the whole completed from a piece with one request for the rest.
    @Test func rangesAreAnsweredFromTheDiskAcrossRuns() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = sandbox.url("/cached/span?cc=max-age=600&etag=v1&size=100")
        let full = try await runJewz(["--cache", directory.path, "--print", "b", whole])
        let part = try await runJewz(["--cache", directory.path, "--print", "hb", whole, "Range:bytes=90-"])
        #expect(part.status == 0, "\(part.error)")
        #expect(part.output.contains("206"), "\(part.output)")
        #expect(part.output.contains("Content-Range: bytes 90-99/100"), "\(part.output)")
        #expect(part.output.hasSuffix(String(full.output.suffix(10))), "\(part.output)")
        #expect(sandbox.router.cacheHits(forKey: "span") == 1)

        let download = sandbox.url("/download/1000?validator=etag")
        let piece = try await runJewz(["--cache", directory.path, "--print", "h", download, "Range:bytes=0-99"])
        #expect(piece.output.contains("206"), "\(piece.output)")
        let completed = try await runJewz(["--cache", directory.path, "--print", "h", download])
        #expect(completed.status == 0, "\(completed.error)")
        #expect(completed.output.hasPrefix("HTTP/1.1 200"), "\(completed.output)")
        #expect(completed.output.contains("Content-Length: 1000"), "the stored piece and the rest: \(completed.output)")
        try await sandbox.shutdown()
    }

    @Test func aWriterKilledAtAnyMomentLeavesOnlyWholeEntries() async throws {
        let size = 16 << 20
        let piece = [UInt8](repeating: UInt8(ascii: "c"), count: 1 << 20)
        // `/cut/N` sends N MiB of the 16 it announces and holds the rest back, so the run is
        // still writing its entry when it is killed; `/whole/N` sends all of it.
        let server = try await ScriptedServer.start { request in
            let parts = request.target.split(separator: "/")
            let head = Step.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: \(size)", "Cache-Control: max-age=600"]))
            guard parts.first == "cut", let sent = parts.last.flatMap({ Int($0) }) else {
                return [head, .sendRepeatedly(piece, count: 16)]
            }
            return [head, .sendRepeatedly(piece, count: sent), .pause(.seconds(120))]
        }
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = directory.appendingPathComponent("cache")
        let cut = (1...8).map { server.url("/cut/\($0 * 2 - 1)") }
        let whole = (0..<2).map { server.url("/whole/\($0)") }
        for (round, url) in cut.enumerated() {
            // With --output the body goes to the cache's file as it arrives.
            let sent = (round * 2 + 1) << 20
            let output = directory.appendingPathComponent("download-\(round)").path
            let killed = try await killWhileWriting(["--cache", cache.path, "--output", output, url], cache: cache, atBytes: sent)
            #expect(killed, "run \(round) was not killed while writing its entry")
        }
        for url in whole {
            let run = try await runJewz(["--cache", cache.path, "--print", "h", url])
            #expect(run.status == 0, "\(run.error)")
        }
        // The finished runs' entries are there and whole; what the killed runs left in tmp/ is
        // never an entry, and the store still works.
        let store = try DiskCacheStore(directory: cache, sizeLimit: 1 << 30)
        for url in cut { #expect(store.response(forKey: "GET " + url) == nil, "\(url)") }
        for url in whole {
            let entry = try #require(store.response(forKey: "GET " + url), "\(url) was not stored")
            #expect(entry.body == Data(repeating: UInt8(ascii: "c"), count: size))
        }
        #expect(store.usage.count == whole.count)
        #expect(contents(of: cache.appendingPathComponent("tmp")).count == cut.count)
        let after = try await runJewz(["--cache", cache.path, "--cache-policy", "offline", "--print", "h", whole[0]])
        #expect(after.status == 0, "\(after.error)")
        try await server.shutdown()
    }

    @Test func twoProcessesWritingOneDirectoryLeaveItWhole() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let urls = (0..<6).map { sandbox.url("/cached/shared\($0)?size=\(200_000 + $0)&cc=max-age=600") }
        // Both processes write every URL, in opposite orders, at the same time.
        async let forward = runEach(urls, cache: directory)
        async let backward = runEach(urls.reversed(), cache: directory)
        let runs = try await forward + backward
        for run in runs { #expect(run.status == 0, "\(run.error)") }
        let store = try DiskCacheStore(directory: directory)
        #expect(store.usage.count == urls.count)
        for (index, url) in urls.enumerated() {
            let entry = try #require(store.response(forKey: "GET " + url), "\(url) was not stored")
            #expect(entry.body == Data(repeating: UInt8(ascii: "c"), count: 200_000 + index))
        }
        try await sandbox.shutdown()
        // And a third run reads them offline.
        let offline = try await runJewz(["--cache", directory.path, "--cache-policy", "offline", "--print", "h", urls[3]])
        #expect(offline.status == 0, "\(offline.error)")
    }

    /// Runs `jewz --cache` on each URL in turn.
    private func runEach(_ urls: [String], cache: URL) async throws -> [JewzRun] {
        var runs: [JewzRun] = []
        for url in urls { runs.append(try await runJewz(["--cache", cache.path, "--print", "h", url])) }
        return runs
    }

    /// Runs `jewz` and kills it (SIGKILL) as soon as a file in the cache's `tmp/` holds
    /// `bytes` bytes; says whether the kill left that file there, unfinished.
    private func killWhileWriting(_ arguments: [String], cache: URL, atBytes bytes: Int) async throws -> Bool {
        let temporary = cache.appendingPathComponent("tmp")
        let before = Set(contents(of: temporary))
        return try await runBlocking {
            let process = try ChildProcess.spawn(jewzExecutable.path, arguments: arguments, environment: childEnvironment, input: Data())
            onOwnThread { _ = process.standardError?.readDataToEndOfFile() }
            onOwnThread { _ = process.standardOutput.readDataToEndOfFile() }
            let deadline = ContinuousClock.now + .seconds(60)
            var writing: String?
            while writing == nil, !process.hasExited, ContinuousClock.now < deadline {
                writing = Set(contents(of: temporary)).subtracting(before).first { name in
                    let size = (try? FileManager.default.attributesOfItem(atPath: temporary.appendingPathComponent(name).path))?[.size]
                    return ((size as? NSNumber)?.intValue ?? 0) >= bytes
                }
                if writing == nil { usleep(200) }
            }
            process.send(SIGKILL)
            let termination = process.waitForExit()
            guard let writing else { return false }
            return termination.signal == SIGKILL && contents(of: temporary).contains(writing)
        }
    }

    @Test func aDownloadCutOffIsContinuedFromTheCacheByTheNextRun() async throws {
        let body = [UInt8]((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let ranges = Mutex<[String]>([])
        // The first answer breaks off after 400 KiB; a request for the rest gets a 206.
        let server = try await ScriptedServer.start { request in
            let common = ["ETag: \"v1\"", "Cache-Control: max-age=600"]
            let range = request.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("range: bytes=") }
            ranges.withLock { $0.append(range.map(String.init) ?? "") }
            guard let range, let first = Int(range.split(separator: "=").last?.dropLast() ?? "") else {
                let head = Step.send(responseHead("HTTP/1.1 200 OK", common + ["Content-Length: \(body.count)"]))
                return request.index == 0 ? [head, .send(Array(body.prefix(400 << 10))), .close] : [head, .send(body)]
            }
            return [
                .send(responseHead("HTTP/1.1 206 Partial Content", common + [
                    "Content-Range: bytes \(first)-\(body.count - 1)/\(body.count)", "Content-Length: \(body.count - first)",
                ])),
                .send(Array(body[first...])),
            ]
        }
        let directory = try makeScratchDirectory(prefix: "jewz-cache-piece")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = directory.appendingPathComponent("cache").path
        let output = directory.appendingPathComponent("file.bin")
        let broken = try await runJewz(["--cache", cache, "--retries", "0", "--output", output.path, server.url("/file.bin")])
        #expect(broken.status == 2, "\(broken.error)")
        let run = try await runJewz(["--cache", cache, "--output", output.path, server.url("/file.bin")])
        #expect(run.status == 0, "\(run.error)")
        #expect(try Data(contentsOf: output) == Data(body), "byte-identical to the origin's")
        #expect(ranges.withLock { $0 } == ["", "Range: bytes=409600-"], "the second run asked only for the rest")
        try await server.shutdown()
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
