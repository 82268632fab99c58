import Foundation
import JewzEventSource
import JewzHAR
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz proxy --web` as a user runs it: curl sends traffic through the proxy while the page's
/// API is read (the page itself runs in Chromium in CI: Tools/Interop/traffic_view_interop.py).
@Suite struct TrafficViewCommandTests {
    private struct Row: Decodable, Sendable {
        let id: Int
        let method: String
        let url: String
        let status: Int?
        let state: String
        let source: String
        let size: Int
    }

    private struct Detail: Decodable {
        struct Body: Decodable {
            let text: String?
            let size: Int
            let truncated: Bool
            let note: String?
        }

        let entry: HTTPArchive.Entry
        let requestBody: Body?
        let responseBody: Body
    }

    @Test func thePageIsToldOfEachExchangeAsItHappensAndShowsItRedactedUntilRevealed() async throws {
        let sandbox = try await Sandbox.start()
        let proxy = try await ServingJewz.start(
            ["--port", "0", "--upstream", sandbox.baseURL, "--web", "--web-port", "0"], command: "proxy", lines: 2)
        let page = try #require(proxy.laterURLs.first)
        let json = try await runCurl(["-H", "Authorization: Bearer page-secret", proxy.baseURL + "/json"])
        #expect(json.output.contains(#""name":"Jewzruxin""#))
        // The page's event stream: the rows kept, then each change as it happens.
        let session = HTTPSession()
        let events = Mutex<[Row]>([])
        let feed = HTTPEventSource(url: try #require(URL(string: page + "/api/events")), session: session, configuration: .init(reconnects: false))
        let watcher = Task {
            for try await event in feed where event.type == "exchanges" {
                let batch = try JSONDecoder().decode([Row].self, from: Data(event.data.utf8))
                events.withLock { $0 += batch }
            }
        }
        try await waitUntil { events.withLock { $0.map(\.id) } == [1] }
        // An exchange is shown while it waits for its answer: the origin holds this one until
        // its client gives up.
        let waiting = try ChildProcess.spawn("/usr/bin/curl", arguments: ["--silent", proxy.baseURL + "/echo/?delay=60"], environment: childEnvironment)
        try await waitUntil { events.withLock { rows in rows.contains { $0.id == 2 && $0.state == "waiting" } } }
        // SIGKILL: a spawned child may not see SIGTERM (it inherits the spawning thread's signal mask).
        waiting.send(SIGKILL)
        _ = try await runBlocking { waiting.waitForExit() }
        try await waitUntil { events.withLock { rows in rows.contains { $0.id == 2 && $0.state == "failed" } } }
        let posted = try await runCurl(["--data-binary", "name=Ada&password=pw", proxy.baseURL + "/dumpupload/"])
        #expect(posted.output == "name=Ada&password=pw")
        _ = try await runCurl([proxy.baseURL + "/encoded?coding=gzip&content=zipped"])
        try await waitUntil { events.withLock { Set($0.filter { $0.state == "complete" }.map(\.id)) } == [1, 3, 4] }
        watcher.cancel()
        try await session.shutdown()

        let rows = try JSONDecoder().decode([Row].self, from: Data(try await runCurl([page + "/api/exchanges"]).output.utf8))
        #expect(rows.map(\.method) == ["GET", "GET", "POST", "GET"])
        #expect(rows.map(\.status) == [200, nil, 200, 200])
        #expect(rows.map(\.source) == ["origin", "origin", "origin", "origin"])
        #expect(rows[0].url == sandbox.baseURL + "/json")

        let shown = try JSONDecoder().decode(Detail.self, from: Data(try await runCurl([page + "/api/exchanges/1"]).output.utf8))
        #expect(shown.entry.request.headers.first { $0.name == "Authorization" }?.value == "[redacted]")
        #expect(shown.responseBody.text?.contains(#""name":"Jewzruxin""#) == true)
        let revealed = try JSONDecoder().decode(Detail.self, from: Data(try await runCurl([page + "/api/exchanges/1?reveal=1"]).output.utf8))
        #expect(revealed.entry.request.headers.first { $0.name == "Authorization" }?.value == "Bearer page-secret")
        let form = try JSONDecoder().decode(Detail.self, from: Data(try await runCurl([page + "/api/exchanges/3"]).output.utf8))
        #expect(form.requestBody?.text == "name=Ada&password=[redacted]")
        let zipped = try JSONDecoder().decode(Detail.self, from: Data(try await runCurl([page + "/api/exchanges/4"]).output.utf8))
        #expect(zipped.responseBody.text == "zipped", "a gzipped body is shown decoded")

        // The export: HAR 1.2 that the toolkit's reader reads, credentials redacted.
        let exported = try await runCurl(["--include", page + "/api/har?ids=1,3"])
        #expect(exported.output.contains("Content-Disposition: attachment"))
        let har = try #require(exported.output.range(of: "\r\n\r\n")).upperBound
        let archive = try JSONDecoder().decode(HTTPArchive.self, from: Data(exported.output[har...].utf8))
        #expect(archive.log.version == "1.2")
        #expect(archive.log.entries.map(\.request.method) == ["GET", "POST"])
        #expect(!exported.output.contains("page-secret"))

        // A name rebound to 127.0.0.1 reaches nothing.
        let rebound = try await runCurl(["--include", "-H", "Host: attacker.example", page + "/api/exchanges"])
        #expect(rebound.output.hasPrefix("HTTP/1.1 403"), "\(rebound.output)")
        try await proxy.stopAndWait()
        try await sandbox.shutdown()
    }

    /// What the Sandbox's `/inspect` saw.
    private struct Inspected: Decodable {
        let method: String
        let body: String
        let headers: [[String]]
    }

    @Test func sendAgainGoesThroughTheProxyToTheOriginEditedOrAsItWent() async throws {
        let sandbox = try await Sandbox.start()
        let proxy = try await ServingJewz.start(
            ["--port", "0", "--upstream", sandbox.baseURL, "--web", "--web-port", "0"], command: "proxy", lines: 2)
        let page = try #require(proxy.laterURLs.first)
        _ = try await runCurl(["-H", "Authorization: Bearer kept", proxy.baseURL + "/inspect"])
        let again = try await runCurl(["-X", "POST", "-H", "Content-Type: application/json", "--data", "{}", page + "/api/exchanges/1/send-again"])
        #expect(again.output.contains(#""status":200"#), "\(again.output)")
        let edited = try await runCurl([
            "-X", "POST", "-H", "Content-Type: application/json",
            "--data", #"{"method":"PUT","headers":[["Authorization","[redacted]"],["X-Edited","yes"]],"body":"changed"}"#,
            page + "/api/exchanges/1/send-again",
        ])
        #expect(edited.output.contains(#""status":200"#), "\(edited.output)")
        let rows = try JSONDecoder().decode([Row].self, from: Data(try await runCurl([page + "/api/exchanges"]).output.utf8))
        #expect(rows.map(\.method) == ["GET", "GET", "PUT"])
        // The origin saw the edits, and the credential left `[redacted]` went as it was.
        let echoed = try await runCurl([page + "/api/exchanges/3/body/response"])
        let inspected = try JSONDecoder().decode(Inspected.self, from: Data(echoed.output.utf8))
        #expect(inspected.method == "PUT" && inspected.body == "changed")
        #expect(inspected.headers.contains(["Authorization", "Bearer kept"]), "\(inspected.headers)")
        #expect(inspected.headers.contains(["X-Edited", "yes"]), "\(inspected.headers)")
        // A form of another site cannot send it.
        let form = try await runCurl(["--include", "-X", "POST", "--data", "x=1", page + "/api/exchanges/1/send-again"])
        #expect(form.output.hasPrefix("HTTP/1.1 415"), "\(form.output)")
        try await proxy.stopAndWait()
        try await sandbox.shutdown()
    }

    @Test func thePageKeepsTheLastExchangesAndThePartOfABodyItIsAllowed() async throws {
        let sandbox = try await Sandbox.start()
        let proxy = try await ServingJewz.start(
            ["--port", "0", "--upstream", sandbox.baseURL, "--web", "--web-port", "0", "--web-keep", "2", "--web-body-limit", "1"],
            command: "proxy", lines: 2)
        let page = try #require(proxy.laterURLs.first)
        for size in [10, 20, 3000] { _ = try await runCurl([proxy.baseURL + "/bytes/\(size)"]) }
        let rows = try JSONDecoder().decode([Row].self, from: Data(try await runCurl([page + "/api/exchanges"]).output.utf8))
        #expect(rows.map(\.id) == [2, 3], "the oldest goes past --web-keep")
        #expect(rows.map(\.size) == [20, 3000], "the whole size is counted")
        let large = try JSONDecoder().decode(Detail.self, from: Data(try await runCurl([page + "/api/exchanges/3"]).output.utf8))
        #expect(large.responseBody.truncated)
        #expect(large.responseBody.note == "3000 bytes, past the traffic view's limit of 1024: the first 1024 kept", "\(String(describing: large.responseBody.note))")
        let exported = try JSONDecoder().decode(HTTPArchive.self, from: Data(try await runCurl([page + "/api/har"]).output.utf8))
        #expect(exported.log.entries.last?.response.content.text == nil, "an export leaves out what it does not have whole")
        let kept = try await runCurl(["--include", page + "/api/exchanges/3/body/response"]).output
        #expect(kept.contains("Content-Length: 1024\r\n"), "the body's link gives the bytes kept")
        #expect(try await runCurl(["--include", page + "/api/exchanges/1"]).output.hasPrefix("HTTP/1.1 404"))
        // A request body past the proxy's 1 MiB streams through: counted as it goes, kept in part.
        let directory = try makeScratchDirectory(prefix: "jewz-traffic-view")
        defer { try? FileManager.default.removeItem(at: directory) }
        let upload = directory.appendingPathComponent("upload")
        try Data(repeating: 0x61, count: 2 << 20).write(to: upload)
        let echoed = try await runCurl(["--data-binary", "@" + upload.path, "--output", "/dev/null", "--write-out", "%{size_download}", proxy.baseURL + "/dumpupload/"])
        #expect(echoed.output == String(2 << 20))
        let streamed = try JSONDecoder().decode(Detail.self, from: Data(try await runCurl([page + "/api/exchanges/4"]).output.utf8))
        #expect(streamed.requestBody?.size == 2 << 20)
        #expect(streamed.requestBody?.truncated == true)
        #expect(streamed.responseBody.size == 2 << 20)
        try await proxy.stopAndWait()
        try await sandbox.shutdown()
    }

    @Test func eachRowSaysWhereItsAnswerCameFromTheOriginTheCacheOrTheArchive() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-traffic-sources")
        defer { try? FileManager.default.removeItem(at: directory) }
        let archive = directory.appendingPathComponent("api.har").path
        let sandbox = try await Sandbox.start()
        let caching = try await ServingJewz.start(
            ["--port", "0", "--upstream", sandbox.baseURL, "--web", "--web-port", "0", "--cache", directory.appendingPathComponent("cache").path,
             "--record", archive],
            command: "proxy", lines: 2)
        for _ in 0..<2 { _ = try await runCurl([caching.baseURL + "/cached/sources?cc=max-age=600"]) }
        let cached = try JSONDecoder().decode([Row].self, from: Data(try await runCurl([try #require(caching.laterURLs.first) + "/api/exchanges"]).output.utf8))
        #expect(cached.map(\.source) == ["origin", "cache"])
        try await caching.stopAndWait()
        try await sandbox.shutdown()

        let replaying = try await ServingJewz.start(["--port", "0", "--replay", archive, "--web", "--web-port", "0"], command: "proxy", lines: 2)
        _ = try await runCurl([replaying.baseURL + "/cached/sources?cc=max-age=600"])
        let replayed = try JSONDecoder().decode([Row].self, from: Data(try await runCurl([try #require(replaying.laterURLs.first) + "/api/exchanges"]).output.utf8))
        #expect(replayed.map(\.source) == ["replay"])
        #expect(replayed.map(\.status) == [200])
        try await replaying.stopAndWait()
    }
}
