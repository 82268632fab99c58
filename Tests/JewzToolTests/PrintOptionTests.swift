import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `--headers`, `--body`, `--print m` and `--parsed`, run as a user runs them (piped: no colour).
@Suite struct PrintOptionTests {
    @Test func headersBodyAndMetadata() async throws {
        let sandbox = try await Sandbox.start()
        let headers = try await runJewz(["--headers", sandbox.url("/hello/")])
        #expect(headers.output.hasPrefix("HTTP/1.1 200 OK\n"), "\(headers.output)")
        #expect(!headers.output.contains("Hello World"))
        let body = try await runJewz(["--body", sandbox.url("/hello/")])
        #expect(body.output == "Hello World")
        let meta = try await runJewz(["--print", "m", "POST", sandbox.url("/dumpupload/"), "a=1"])
        let lines = meta.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Elapsed time: ") == true, "\(meta.output)")
        #expect(lines.contains("HTTP version: HTTP/1.1"))
        #expect(lines.contains("Request body: 9 bytes"))
        #expect(lines.contains("Response body: 9 bytes"))
        #expect(lines.contains("From: the network"))
        let both = try await runJewz(["--headers", "--body", sandbox.url("/hello/")])
        #expect(both.status == 1)
        #expect(both.error.contains("Give one of --print, --headers, --body and --verbose"))
        try await sandbox.shutdown()
    }

    @Test func verbosePrintsTheRequestAsItWentOut() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.json").path
        _ = try await runJewz(["--session", file, sandbox.url("/echo"), "header==Set-Cookie:token=t1"])
        let run = try await runJewz(["-v", "--session", file, "-a", "ada:pw", "POST", sandbox.url("/dumpupload/"), "a=1"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "POST /dumpupload/ HTTP/1.1", "\(run.output)")
        // What the processors, the session and the cookie jar added, not only what was typed.
        for field in [
            "Authorization: Basic YWRhOnB3", "Accept-Encoding: gzip, x-gzip, deflate, br, zstd", "Content-Type: application/json",
            "Content-Length: 9", "Cookie: token=t1",
        ] {
            #expect(lines.contains(field), "\(field) missing from \(run.output)")
        }
        let request = try #require(lines.firstIndex(of: #"{"a":"1"}"#))
        let response = try #require(lines.firstIndex(of: "HTTP/1.1 200 OK"))
        #expect(request < response)
        #expect(lines.last(where: { !$0.isEmpty }) == #"{"a":"1"}"#)
        let head = try await runJewz(["--print", "H", sandbox.url("/hello/")])
        #expect(head.output.hasPrefix("GET /hello/ HTTP/1.1\n"), "\(head.output)")
        #expect(!head.output.contains("Hello World"))
        let body = try await runJewz(["--print", "B", "PUT", sandbox.url("/dumpupload/"), "n:=2"])
        #expect(body.output == #"{"n":2}"# + "\n", "\(body.output)")
        try await sandbox.shutdown()
    }

    @Test func parsedPrintsWhatTheRegistryMade() async throws {
        let sandbox = try await Sandbox.start()
        let json = try await runJewz(["--parsed", sandbox.url("/json")])
        #expect(json.output.contains(#""name": "Jewzruxin""#), "\(json.output)")
        #expect(json.output.split(separator: "\n").count > 5)
        let xml = try await runJewz(["--parsed", sandbox.url("/xml")])
        #expect(xml.output == "catalog\n  j:item id=1: \"Hello\"\n  j:item id=2: \"World & more\"\n", "\(xml.output)")
        let formType = try #require("Content-Type:application/x-www-form-urlencoded".addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let form = try await runJewz(["--parsed", sandbox.url("/echo/?content=a%3D1%26b%3Dtwo%2Bwords&header=\(formType)")])
        #expect(form.output == "a = 1\nb = two words\n", "\(form.output)")
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let note = directory.appendingPathComponent("note.txt")
        try Data("hello".utf8).write(to: note)
        let multipart = try await runJewz(["--parsed", sandbox.url("/dumpupload/"), "author=Ada", "file@\(note.path)"])
        let parts = multipart.output.split(separator: "\n").map(String.init)
        #expect(parts.first == #"part 1: "author", 3 bytes"#, "\(multipart.output)")
        #expect(parts.last?.hasPrefix(#"part 2: "file", file "note.txt""#) == true)
        #expect(parts.last?.hasSuffix(", 5 bytes") == true)
        let bytes = try await runJewz(["--parsed", sandbox.url("/bytes/10")])
        #expect(bytes.output == "(no processor parsed this body: its Content-Type is application/octet-stream)\n")
        try await sandbox.shutdown()
    }

    @Test func aTerminalGetsColouredJSONAndNoBinaryDump() async throws {
        let sandbox = try await Sandbox.start()
        let json = try await runJewzOnTerminal(["--body", sandbox.url("/json")])
        #expect(json.status == 0)
        #expect(json.screen.contains("\u{1B}["), "no colour: \(json.screen.debugDescription)")
        #expect(json.screen.contains("Jewzruxin"))
        // Pretty, in the server's order of keys (name, version, tags, items), not sorted.
        let keys = ["\"name\"", "\"version\"", "\"tags\"", "\"items\""].map { json.screen.range(of: $0)?.lowerBound }
        #expect(keys.allSatisfy { $0 != nil } && keys.compactMap { $0 } == keys.compactMap { $0 }.sorted(), "\(json.screen.debugDescription)")
        let binary = try await runJewzOnTerminal(["--body", sandbox.url("/bytes/64")])
        #expect(binary.screen.contains("[binary data, 64 bytes: not shown on a terminal]"), "\(binary.screen.debugDescription)")
        let piped = try await runJewz(["--body", sandbox.url("/json")])
        #expect(!piped.output.contains("\u{1B}["))
        try await sandbox.shutdown()
    }

    /// SwiftNIO keeps no reason phrase a server sends: a code it has no phrase for is shown alone,
    /// not followed by a space or by a phrase of jewz's making.
    @Test func aCodeWithoutAStandardPhraseIsShownAlone() async throws {
        let server = try await ScriptedServer.start { _ in
            [.send("HTTP/1.1 299 Weird But Fine\r\nContent-Length: 2\r\n\r\nok")]
        }
        let run = try await runJewz(["--headers", server.url("/")])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.hasPrefix("HTTP/1.1 299\n"), "\(run.output)")
        try await server.shutdown()
    }
}
