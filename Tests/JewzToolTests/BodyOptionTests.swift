import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// Where a request's body comes from: standard input, `@file`, `name=@file`, `name:=@file`,
/// `--raw`; one source at a time, and POST only when there is a body.
@Suite struct BodyOptionTests {
    private func inspected(_ run: JewzRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    }

    private func header(_ name: String, in seen: [String: Any]) -> String? {
        (seen["headers"] as? [[String]])?.first { $0.first?.lowercased() == name.lowercased() }?.last
    }

    @Test func pipedStandardInputIsTheBodyAndMakesItAPOST() async throws {
        let sandbox = try await Sandbox.start()
        let piped = try await runJewz([sandbox.url("/inspect")], input: #"{"from":"stdin"}"#)
        let seen = try inspected(piped)
        #expect(seen["method"] as? String == "POST")
        #expect(seen["body"] as? String == #"{"from":"stdin"}"#)
        #expect(header("Content-Type", in: seen) == "application/json")
        let ignored = try await runJewz(["--ignore-stdin", sandbox.url("/inspect")], input: "ignored")
        #expect(try inspected(ignored)["method"] as? String == "GET")
        let empty = try await runJewz([sandbox.url("/inspect")])
        #expect(try inspected(empty)["bodyLength"] as? Int == 0)
        try await sandbox.shutdown()
    }

    @Test func filesGiveTheBodyOrAFieldsValue() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("order.json")
        try Data(#"{"items":[1,2]}"#.utf8).write(to: json)
        let note = directory.appendingPathComponent("note.txt")
        try Data("a note\n".utf8).write(to: note)

        let whole = try inspected(try await runJewz([sandbox.url("/inspect"), "@\(json.path)"]))
        #expect(whole["method"] as? String == "POST")
        #expect(whole["body"] as? String == #"{"items":[1,2]}"#)
        #expect(header("Content-Type", in: whole) == "application/json")

        let fields = try inspected(try await runJewz([sandbox.url("/inspect"), "note=@\(note.path)", "order:=@\(json.path)"]))
        #expect(fields["body"] as? String == #"{"note":"a note\n","order":{"items":[1,2]}}"#)

        let raw = try inspected(try await runJewz(["PUT", sandbox.url("/inspect"), "--raw", "plain words"]))
        #expect(raw["method"] as? String == "PUT")
        #expect(raw["body"] as? String == "plain words")
        #expect(header("Content-Type", in: raw) == "text/plain; charset=utf-8")
        try await sandbox.shutdown()
    }

    @Test func oneBodyAtATimeAndFilesThatCannotBeRead() async throws {
        let sandbox = try await Sandbox.start()
        let two = try await runJewz([sandbox.url("/inspect"), "a=1", "--raw", "x"])
        #expect(two.status == 1)
        #expect(two.error.contains("Give one body"))
        let missing = try await runJewz([sandbox.url("/inspect"), "note=@/nonexistent/note.txt"])
        #expect(missing.status == 1)
        #expect(missing.messages == ["jewz: The file '/nonexistent/note.txt' cannot be read; check the path after @."])
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let words = directory.appendingPathComponent("words.txt")
        try Data("not json".utf8).write(to: words)
        let notJSON = try await runJewz([sandbox.url("/inspect"), "data:=@\(words.path)"])
        #expect(notJSON.status == 1)
        #expect(notJSON.error.contains("'data:=@\(words.path)': the value after := must be JSON"))
        try await sandbox.shutdown()
    }
}
