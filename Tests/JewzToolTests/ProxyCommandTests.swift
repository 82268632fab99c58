import Foundation
import JewzHAR
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz proxy` as a user runs it, with curl (a client no one here wrote) on the other side.
@Suite struct ProxyCommandTests {
    @Test func aReverseProxyRecordsEachExchangeBeforeCurlHasItsAnswerAndReplaysThemWithTheOriginGone() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-proxy")
        defer { try? FileManager.default.removeItem(at: directory) }
        let archive = directory.appendingPathComponent("api.har").path
        let sandbox = try await Sandbox.start()
        let recording = try await ServingJewz.start(["--port", "0", "--upstream", sandbox.baseURL, "--record", archive], command: "proxy")
        let json = try await runCurl([recording.baseURL + "/json?x=1"])
        // An answer is whole for its client only once its exchange is recorded: the client's
        // next request may come at once, and the archive keeps their order.
        #expect(try HTTPArchive(contentsOf: URL(fileURLWithPath: archive)).log.entries.count == 1)
        let posted = try await runCurl(["--data-binary", "hello", recording.baseURL + "/dumpupload/"])
        #expect(try HTTPArchive(contentsOf: URL(fileURLWithPath: archive)).log.entries.count == 2)
        let missing = try await runCurl(["--include", recording.baseURL + "/status/404"])
        #expect(json.status == 0 && json.output.contains(#""name":"Jewzruxin""#), "\(json.error)")
        #expect(posted.output == "hello")
        #expect(missing.output.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(missing.output.contains("Via: 1.1 jewz\r\n"))
        try await recording.stopAndWait()
        #expect(recording.errorLines.filter { $0.hasPrefix("jewz: proxy ") }.count == 3, "\(recording.errorLines)")
        #expect(recording.errorLines.first?.contains("/json?x=1 → 200 network") == true, "\(recording.errorLines)")
        let recorded = try HTTPArchive(contentsOf: URL(fileURLWithPath: archive))
        #expect(recorded.log.entries.map(\.response.status) == [200, 200, 404])
        #expect(recorded.log.entries[1].request.postData?.text == "hello")
        try await sandbox.shutdown()

        // An archive of one origin needs no --upstream: paths are taken as under that origin.
        let replaying = try await ServingJewz.start(["--port", "0", "--replay", archive], command: "proxy")
        #expect(try await runCurl([replaying.baseURL + "/json?x=1"]).output == json.output)
        #expect(try await runCurl(["--data-binary", "hello", replaying.baseURL + "/dumpupload/"]).output == "hello")
        let unknown = try await runCurl(["--include", replaying.baseURL + "/hello/"])
        #expect(unknown.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
        #expect(unknown.output.contains("the closest recorded is"), "\(unknown.output)")
        try await replaying.stopAndWait()
        #expect(replaying.errorLines.first?.contains("→ 200 replay") == true, "\(replaying.errorLines)")

        // Of several origins none is a reverse proxy's: paths get a 400 saying what to add, and
        // absolute URLs are answered as by a forward proxy.
        var twoOrigins = recorded
        twoOrigins.log.entries[1].request.url = "http://localhost:9/dumpupload/"
        let mixed = directory.appendingPathComponent("mixed.har")
        try JSONEncoder().encode(twoOrigins).write(to: mixed)
        let forwarding = try await ServingJewz.start(["--port", "0", "--replay", mixed.path], command: "proxy")
        let path = try await runCurl(["--include", forwarding.baseURL + "/json?x=1"])
        #expect(path.output.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(path.output)")
        #expect(path.output.contains("holds 2 origins (\(sandbox.baseURL), http://localhost:9): add --upstream"), "\(path.output)")
        #expect(try await runCurl(["--proxy", forwarding.baseURL, sandbox.baseURL + "/json?x=1"]).output == json.output)
        try await forwarding.stopAndWait()
    }

    @Test func curlThroughAForwardProxyAndATunnel() async throws {
        let sandbox = try await Sandbox.start()
        let certificates = try SandboxCertificates.generate()
        let secure = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
        let directory = try makeScratchDirectory(prefix: "jewz-proxy-tls")
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = directory.appendingPathComponent("ca.pem")
        try Data(certificates.authorityPEM.utf8).write(to: authority)
        let proxy = try await ServingJewz.start(["--port", "0"], command: "proxy")
        let plain = try await runCurl(["-x", proxy.baseURL, sandbox.url("/hello/")])
        #expect(plain.output == "Hello World", "\(plain.error)")
        let tunnelled = try await runCurl(["-x", proxy.baseURL, "--cacert", authority.path, secure.url("/hello/")])
        #expect(tunnelled.output == "Hello World", "\(tunnelled.error)")
        // A path alone is no forward-proxy request.
        let refused = try await runCurl(["--include", proxy.baseURL + "/hello/"])
        #expect(refused.output.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        try await proxy.stopAndWait()
        #expect(proxy.errorLines.contains { $0.contains("CONNECT 127.0.0.1:\(secure.port) → tunnel") }, "\(proxy.errorLines)")
        try await secure.shutdown()
        try await sandbox.shutdown()
    }

    @Test func aSharedCacheAnswersASecondClientWithoutTheOrigin() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-proxy-cache")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sandbox = try await Sandbox.start()
        let proxy = try await ServingJewz.start(["--port", "0", "--upstream", sandbox.baseURL, "--cache", directory.path], command: "proxy")
        for _ in 0..<2 { #expect(try await runCurl([proxy.baseURL + "/cached/shared?cc=max-age=600"]).output == "shared #1") }
        #expect(sandbox.router.cacheHits(forKey: "shared") == 1)
        // `private` is one user's: a shared cache passes it on every time.
        for round in 1...2 { #expect(try await runCurl([proxy.baseURL + "/cached/mine?cc=private,max-age=600"]).output == "mine #\(round)") }
        try await proxy.stopAndWait()
        #expect(proxy.errorLines.contains { $0.contains("/cached/shared?cc=max-age=600 → 200 cache") }, "\(proxy.errorLines)")
        try await sandbox.shutdown()
    }

    /// Methods beyond GET and POST go upstream as written (`M-SEARCH` keeps its hyphen, or the
    /// origin's parser would refuse it), and an unsafe one invalidates the stored answer for
    /// its target only when it succeeds (RFC 9111 §4.4).
    @Test func anyMethodGoesUpstreamAndOnlyASuccessfulUnsafeOneInvalidates() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-proxy-methods")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sandbox = try await Sandbox.start()
        let proxy = try await ServingJewz.start(
            ["--port", "0", "--upstream", sandbox.baseURL, "--cache", directory.path, "--retries", "0"], command: "proxy")
        let searched = try await runCurl(["--include", "-X", "M-SEARCH", proxy.baseURL + "/inspect"])
        #expect(searched.output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(searched.output)")
        let page = proxy.baseURL + "/cached/dav?cc=max-age=600"
        for _ in 0..<2 { #expect(try await runCurl([page]).output == "dav #1") }
        _ = try await runCurl([proxy.baseURL + "/cached/dav/down"])
        let failed = try await runCurl(["--include", "-X", "PROPFIND", page])
        #expect(failed.output.hasPrefix("HTTP/1.1 503"), "\(failed.output)")
        #expect(try await runCurl([page]).output == "dav #1", "a failed PROPFIND leaves the stored answer")
        _ = try await runCurl([proxy.baseURL + "/cached/dav/up"])
        let succeeded = try await runCurl(["--include", "-X", "PROPFIND", page])
        #expect(succeeded.output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(succeeded.output)")
        #expect(try await runCurl([page]).output == "dav #4", "a successful PROPFIND invalidated it")
        try await proxy.stopAndWait()
        #expect(proxy.errorLines.contains { $0.contains("proxy M-SEARCH ") }, "\(proxy.errorLines)")
        try await sandbox.shutdown()
    }

    /// The Sandbox cuts every answer of this URL after 400,000 of its 1,000,000 bytes: without
    /// pieces no client ever gets it whole; with them each request continues the stored start.
    @Test func aSharedCacheKeepsCutOffBodiesAndContinuesThem() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-proxy-pieces")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sandbox = try await Sandbox.start()
        let proxy = try await ServingJewz.start(
            ["--port", "0", "--upstream", sandbox.baseURL, "--cache", directory.appendingPathComponent("cache").path, "--retries", "0"],
            command: "proxy")
        let url = proxy.baseURL + "/download/1000000?drop=400000"
        let file = directory.appendingPathComponent("body")
        var sizes: [String] = []
        for _ in 1...3 {
            let run = try await runCurl(["--output", file.path, "--write-out", "%{size_download}", url])
            sizes.append(run.output)
        }
        #expect(sizes == ["400000", "800000", "1000000"], "each request got further: \(sizes)")
        let body = try Data(contentsOf: file)
        #expect(body.indices.allSatisfy { body[$0] == UInt8($0 % 251) }, "the Sandbox's pattern, byte for byte")
        try await proxy.stopAndWait()
        try await sandbox.shutdown()
    }

    @Test func hopByHopFieldsStayHereAndAHostileUpstreamGetsA502() async throws {
        let sandbox = try await Sandbox.start()
        let proxy = try await ServingJewz.start(["--port", "0", "--retries", "0"], command: "proxy")
        let inspected = try await runCurl([
            "-x", proxy.baseURL, "-H", "Connection: X-Secret", "-H", "X-Secret: 1", "-H", "Keep-Alive: timeout=5", "-H", "X-Kept: yes",
            sandbox.url("/inspect"),
        ])
        let inspection = try Inspection(data: Data(inspected.output.utf8))
        #expect(inspection.values("X-Kept") == ["yes"])
        #expect(inspection.values("X-Secret").isEmpty)
        #expect(inspection.values("Keep-Alive").isEmpty)
        #expect(inspection.values("Via") == ["1.1 jewz"])
        try await withScriptedServer({ _ in [.send("this is not HTTP\r\n\r\n"), .close] }) { hostile, _ in
            let answer = try await runCurl(["--include", "-x", proxy.baseURL, hostile.url("/")])
            #expect(answer.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), "\(answer.output)")
            #expect(answer.output.contains("the upstream failed"))
        }
        // And it goes on serving.
        #expect(try await runCurl(["-x", proxy.baseURL, sandbox.url("/hello/")]).output == "Hello World")
        try await proxy.stopAndWait()
        try await sandbox.shutdown()
    }

    @Test func aClientThatGoesAwayCancelsTheUpstreamRequest() async throws {
        let sandbox = try await Sandbox.start()
        let proxy = try await ServingJewz.start(["--port", "0", "--upstream", sandbox.baseURL], command: "proxy")
        // The Sandbox holds its answer 60 s; curl is killed once the request has reached it (a
        // fixed `--max-time` could end curl before a loaded machine got the request there).
        // SIGKILL, which a child can neither block nor handle: SIGTERM left curl running here
        // (a spawned child inherits the signal mask of the thread that spawns it).
        let curl = try ChildProcess.spawn(
            "/usr/bin/curl", arguments: ["--silent", proxy.baseURL + "/counter?key=held&fail=0&hold=60"], environment: childEnvironment)
        try await waitUntil { sandbox.router.requestCount(forKey: "held") == 1 }
        curl.send(SIGKILL)
        let gaveUp = try await runBlocking { curl.waitForExit() }
        #expect(gaveUp.signal == SIGKILL)
        #expect(sandbox.router.requestCount(forKey: "held") == 1)
        try await waitUntil { sandbox.openConnectionCount == 0 }
        try await proxy.stopAndWait()
        #expect(proxy.errorLines.contains { $0.contains("→ client gone") }, "\(proxy.errorLines)")
        try await sandbox.shutdown()
    }

    @Test func aLargeDownloadStreamsThroughWithoutMemory() async throws {
        let sandbox = try await Sandbox.start()
        let proxy = try await ServingJewz.start(
            ["--port", "0", "--upstream", sandbox.baseURL], command: "proxy", environment: ["JEWZ_REPORT_PEAK_MEMORY": "1"])
        let size = LargeTransferTests.size
        let download = try await runCurl(["--output", "/dev/null", "--write-out", "%{size_download}", proxy.baseURL + "/download/\(size)"])
        #expect(download.output == String(size), "\(download.error)")
        try await proxy.stopAndWait()
        let peak = try #require(LargeTransferTests.peak(in: proxy.errorLines.joined(separator: "\n")), "\(proxy.errorLines)")
        #expect(peak < LargeTransferTests.memoryLimit, "peak RSS \(peak >> 20) MiB")
        try await sandbox.shutdown()
    }
}
