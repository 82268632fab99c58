import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

@testable import jewz

@Suite struct JewzCommandTests {
    @Test func theTourRunsEveryStepAndExitsZero() async throws {
        let result = try await runJewz(["tour"])
        #expect(result.status == 0, "\(result.output)\n\(result.error)")
        #expect(result.output.contains("steps gave the expected result."))
        #expect(!result.output.contains("✗"))
    }

    @Test func theTourListsItsStepsAndRunsThoseAskedFor() async throws {
        let list = try await runJewz(["tour", "--list"])
        #expect(list.status == 0)
        let titles = list.output.split(separator: "\n")
        #expect(titles.count > 30)
        #expect(titles.first == "1. Send a request: a request in, the processed response out")
        let one = try await runJewz(["tour", "1"])
        #expect(one.status == 0, "\(one.output)")
        #expect(one.output.contains("1. Send a request"))
        #expect(one.output.hasSuffix("The step gave the expected result.\n"))
        let services = try await runJewz(["tour", "openapi"])
        #expect(services.status == 0, "\(services.output)")
        #expect(services.output.contains("An OpenAPI document is a profile"))
        #expect(!services.output.contains("1. Send a request"))
        let none = try await runJewz(["tour", "no such step"])
        #expect(none.status == 1)
        #expect(none.error.contains("jewz tour --list shows them"))
        let outside = try await runJewz(["tour", "\(titles.count + 1)"])
        #expect(outside.status == 1)
    }

    /// Generating a completion script validates every subcommand's options: two options of one
    /// name fail it.
    @Test func completionScriptsCoverEverySubcommand() async throws {
        for shell in ["bash", "zsh", "fish"] {
            let run = try await runJewz(["--generate-completion-script", shell])
            #expect(run.status == 0, "\(shell): \(run.output.prefix(500))")
            for command in ["service", "pins", "image", "expand", "tour", "serve", "bench"] {
                #expect(run.output.contains(command), "\(shell) lacks \(command)")
            }
            #expect(!run.output.contains("Validation failed"))
        }
    }

    @Test func everySubcommandIsListedWithAnExampleAndShowsExamplesOfItsOwn() async throws {
        let subcommands = ["request", "expand", "image", "service", "pins", "bench", "serve", "tour"]
        let overview = try await runJewz(["--help"])
        for command in subcommands {
            #expect(overview.output.contains("\n  \(command)"), "jewz --help does not list \(command)")
        }
        for command in subcommands {
            let help = try await runJewz(["help", command])
            #expect(help.status == 0)
            let examples = help.output.split(separator: "\n").filter { $0.hasPrefix("jewz ") }
            #expect(!examples.isEmpty, "jewz help \(command) shows no example")
        }
    }

    @Test func versionIsTheReleaseTheLibraryNames() async throws {
        let run = try await runJewz(["--version"])
        #expect(run.status == 0)
        let agent = try #require(HTTPSession.Configuration().additionalHeaders["User-Agent"] as String?)
        #expect(run.output.trimmingCharacters(in: .whitespacesAndNewlines) == agent.replacingOccurrences(of: "Jewzruxin/", with: ""))
        #expect(run.output.first?.isNumber == true, "jewz --version printed \(run.output)")
    }

    @Test func exitStatusesFollowTheOutcome() async throws {
        let sandbox = try await Sandbox.start()
        let ok = try await runJewz([sandbox.url("/hello/")])
        #expect(ok.status == 0)
        #expect(ok.output == "Hello World")
        let redirected = try await runJewz(["--follow", "GET", sandbox.url("/redirect/3")])
        #expect(redirected.status == 0)
        #expect(redirected.output == "Hello World")
        let notFollowed = try await runJewz(["--print", "h", sandbox.url("/redirect/1")])
        #expect(notFollowed.status == 0)
        #expect(notFollowed.output.hasPrefix("HTTP/1.1 302"), "\(notFollowed.output)")
        let tooMany = try await runJewz(["--follow", "--max-redirects", "2", sandbox.url("/redirect/3")])
        #expect(tooMany.status == 2)
        #expect(tooMany.error.contains("redirected more times"), "\(tooMany.error)")
        let notFound = try await runJewz([sandbox.url("/status/404")])
        #expect(notFound.status == 4)
        #expect(notFound.error == "jewz: the server answered 404 Not Found\n")
        let failing = try await runJewz([sandbox.url("/status/502")])
        #expect(failing.status == 5)
        let slow = try await runJewz(["--timeout", "0.2", sandbox.url("/echo/?delay=5")])
        #expect(slow.status == 2)
        #expect(slow.error.split(separator: "\n").count == 1)
        try await sandbox.shutdown()
        let refused = try await runJewz([sandbox.url("/hello/")])
        #expect(refused.status == 2)
        #expect(refused.error.hasPrefix("jewz: Could not connect"))
    }

    @Test(arguments: [["http://"], [], ["http://127.0.0.1:9/x", "bad:=nojson"], ["--print", "xyz", "http://127.0.0.1:9/"], ["--bogus"]])
    func usageErrorsExitOne(_ arguments: [String]) async throws {
        let result = try await runJewz(arguments)
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("jewz: "))
    }

    @Test func itemsBuildHeadersQueryAndAJSONBody() async throws {
        let sandbox = try await Sandbox.start()
        let result = try await runJewz([
            "--print", "b", "PUT", sandbox.url("/inspect"), "X-Test:yes", "q==a b", "name=café", "n:=42", "list:=[1,\"a\"]",
        ])
        #expect(result.status == 0)
        let inspection = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(inspection["method"] as? String == "PUT")
        #expect(inspection["uri"] as? String == "/inspect?q=a%20b")
        #expect(inspection["body"] as? String == #"{"name":"café","n":42,"list":[1,"a"]}"#)
        let headers = try #require(inspection["headers"] as? [[String]])
        #expect(headers.contains(["X-Test", "yes"]))
        #expect(headers.contains(["Content-Type", "application/json"]))
        try await sandbox.shutdown()
    }

    @Test func itemSeparatorsFollowHttpieRules() throws {
        #expect(try RequestItem("a:=1") == .jsonField(name: "a", value: 1))
        #expect(try RequestItem(#"a:={"x":[true]}"#) == .jsonField(name: "a", value: ["x": [true]]))
        #expect(try RequestItem("a==b=c") == .query(name: "a", value: "b=c"))
        #expect(try RequestItem("Header:a=b") == .header(name: "Header", value: "a=b"))
        #expect(try RequestItem("k=v:w") == .field(name: "k", value: "v:w"))
        #expect(try RequestItem("k=") == .field(name: "k", value: ""))
        #expect(throws: RequestItemError.self) { try RequestItem("plain") }
        #expect(throws: RequestItemError.self) { try RequestItem("=v") }
        #expect(RequestItem.jsonBody([.field(name: "b", value: "1"), .jsonField(name: "a", value: [nil])])?.formatted() == #"{"b":"1","a":[null]}"#)
        #expect(throws: RequestItemError.self) { try RequestItem.formBody([.jsonField(name: "a", value: 1)]) }
    }

    @Test func formFieldsAreSentURLEncoded() async throws {
        let sandbox = try await Sandbox.start()
        let result = try await runJewz(["--form", "--print", "b", sandbox.url("/inspect"), "a=b c", "d=é"])
        #expect(result.status == 0)
        #expect(result.output.contains(#""body":"a=b+c&d=%C3%A9""#))
        #expect(result.output.contains(#"["Content-Type","application\/x-www-form-urlencoded; charset=utf-8"]"#))
        try await sandbox.shutdown()
    }

    @Test func expandPrintsTheExpansion() async throws {
        let result = try await runJewz(["expand", "{/path*}{?q,page}", #"path:=["repos","jewz"]"#, "q=swift nio", "page:=2"])
        #expect(result.status == 0)
        #expect(result.output == "/repos/jewz?q=swift%20nio&page=2\n")
        let broken = try await runJewz(["expand", "{x"])
        #expect(broken.status == 1)
        #expect(broken.error == "jewz: Unclosed expression at offset 0: add the missing '}'.\n")
    }

    @Test func expandJSONLinesKeepsKeyOrderAndReportsErrorsPerLine() async throws {
        let input = """
            {"template": "{?keys*}", "variables": {"keys": {"semi": ";", "dot": ".", "comma": ","}}}
            {"template": "{bad"}
            not json

            {"template": "{var:2}{?u}", "variables": {"var": "héllo", "u": null}}
            """
        let result = try await runJewz(["expand", "--jsonl"], input: input)
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == #"{"expansion":"?semi=%3B&dot=.&comma=%2C"}"#)
        #expect(lines[1].hasPrefix(#"{"error":"Unclosed expression"#))
        #expect(lines[2].hasPrefix(#"{"error":"Invalid JSON at line 1, column 1"#))
        #expect(lines[3] == #"{"expansion":"h%C3%A9"}"#)
    }

    @Test func benchReportsEveryRequestAsJSON() async throws {
        let sandbox = try await Sandbox.start()
        let result = try await runJewz(["bench", sandbox.url("/hello/"), "-n", "60", "-c", "4", "--json"])
        #expect(result.status == 0)
        let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect(report?["requests"] as? Int == 60)
        #expect(report?["concurrency"] as? Int == 4)
        #expect(report?["errors"] as? Int == 0)
        let keys = Set(report?.keys.map { $0 } ?? [])
        #expect(keys == [
            "requests", "concurrency", "requests_per_second", "p50_ms", "p90_ms", "p99_ms", "errors",
            "hedges_sent", "hedges_won", "rate_limit_waits", "rate_limit_rejections", "circuit_rejections",
        ])
        #expect(report?["hedges_sent"] as? Int == 0, "no hedging asked for")
        #expect((report?["p50_ms"] as? Double ?? 0) <= (report?["p99_ms"] as? Double ?? -1))
        try await sandbox.shutdown()
        let invalid = try await runJewz(["bench", "http://127.0.0.1:9/", "-n", "2", "-c", "5"])
        #expect(invalid.status == 1)
    }

    @Test func methodDetection() {
        #expect(RequestCommand.isMethod("PUT", before: "localhost:3000/x"))
        #expect(RequestCommand.isMethod("get", before: "http://h/"))
        #expect(RequestCommand.isMethod("PROPFIND", before: "h:1"))
        #expect(!RequestCommand.isMethod("localhost", before: "a=1"))
        #expect(RequestCommand.isMethod("localhost", before: "example.com"))
        #expect(!RequestCommand.isMethod("http://h/", before: "a=1"))
    }

    @Test func urlShorthands() {
        #expect(RequestCommand.normalizedURL(":3000/x") == "http://localhost:3000/x")
        #expect(RequestCommand.normalizedURL("example.com") == "http://example.com")
        #expect(RequestCommand.normalizedURL("https://example.com") == "https://example.com")
    }

    @Test func fileItemsSendMultipart() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("notes.txt")
        try Data("file contents".utf8).write(to: file)
        let result = try await runJewz(["--print", "b", "post", sandbox.url("/dumpupload/"), "title=Hello", "attachment@\(file.path)"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Content-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\n"))
        #expect(result.output.contains("Content-Disposition: form-data; name=\"attachment\"; filename=\"notes.txt\"\r\nContent-Type: text/plain\r\n\r\nfile contents\r\n"))
        let forced = try await runJewz(["--print", "b", "--multipart", sandbox.url("/inspect"), "a=1"])
        #expect(forced.output.contains(#"multipart\/form-data; boundary=jewz-"#))
        let missing = try await runJewz([sandbox.url("/inspect"), "a@/nonexistent/file"])
        #expect(missing.status == 1)
        #expect(missing.error.contains("cannot be read"))
        try await sandbox.shutdown()
    }

    @Test func aSessionFileKeepsCookiesBetweenRuns() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.json").path
        let set = try await runJewz(["--session", file, sandbox.url("/echo"), "header==Set-Cookie:token=t1"])
        #expect(set.status == 0, "\(set.error)")
        let sent = try await runJewz(["--session", file, "--print", "b", sandbox.url("/inspect")])
        let inspection = try #require(try JSONSerialization.jsonObject(with: Data(sent.output.utf8)) as? [String: Any])
        let headers = try #require(inspection["headers"] as? [[String]])
        #expect(headers.contains(["Cookie", "token=t1"]))
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: file))
        let broken = try await runJewz(["--session", file, sandbox.url("/hello/")])
        #expect(broken.status == 1)
        #expect(broken.messages.count == 1)
        try await sandbox.shutdown()
    }
}
