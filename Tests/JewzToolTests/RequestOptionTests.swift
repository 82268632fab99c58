import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `--retries`, `--solicited` and `--offline`, run as a user runs them.
@Suite struct RequestOptionTests {
    @Test func retriesSetHowOftenAFailureIsTriedAgain() async throws {
        let sandbox = try await Sandbox.start()
        let never = try await runJewz(["--retries", "0", sandbox.url("/counter?key=never&fail=1&retry-after=0")])
        #expect(never.status == 5)
        #expect(sandbox.router.requestCount(forKey: "never") == 1)
        let twice = try await runJewz(["--retries", "2", sandbox.url("/counter?key=twice&fail=2&retry-after=0")])
        #expect(twice.status == 0, "\(twice.error)")
        #expect(twice.output == "attempt 3 succeeds")
        let negative = try await runJewz(["--retries=-1", sandbox.url("/hello/")])
        #expect(negative.status == 1)
        #expect(negative.error.contains("--retries takes 0 or more"))
        try await sandbox.shutdown()
    }

    @Test func aSolicitedRequestRetriesPastTheCountUntilDataArrives() async throws {
        let sandbox = try await Sandbox.start()
        // A bound a starved machine cannot reach: what is shown is the retrying, not the timeout.
        let run = try await runJewz(["--solicited", "--timeout", "300", sandbox.url("/counter?key=asked&fail=6&retry-after=0")])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "attempt 7 succeeds")
        let unbounded = try await runJewz(["--solicited", sandbox.url("/hello/")])
        #expect(unbounded.status == 1)
        #expect(unbounded.error.contains("give --timeout SECONDS"))
        try await sandbox.shutdown()
    }

    @Test func offlinePrintsTheRequestAndSendsNothing() async throws {
        let sandbox = try await Sandbox.start()
        let run = try await runJewz(["--offline", "POST", sandbox.url("/counter?key=offline"), "name=Ada", "X-Api:1"])
        #expect(run.status == 0, "\(run.error)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "POST /counter?key=offline HTTP/1.1")
        #expect(lines.contains("X-Api: 1"))
        #expect(lines.contains("Content-Type: application/json"))
        #expect(lines.contains(#"{"name":"Ada"}"#))
        // As it would go out: with what the session adds, and the credentials.
        #expect(lines.contains("Accept-Encoding: gzip, x-gzip, deflate, br, zstd"), "\(run.output)")
        #expect(sandbox.router.requestCount(forKey: "offline") == 0)
        let authorized = try await runJewz(["--offline", "-a", "ada:pw", sandbox.url("/counter?key=offline")])
        #expect(authorized.output.contains("\nAuthorization: Basic YWRhOnB3\n"), "\(authorized.output)")
        #expect(sandbox.router.requestCount(forKey: "offline") == 0)
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("note.txt")
        try Data("hello".utf8).write(to: file)
        let multipart = try await runJewz(["--offline", sandbox.url("/dumpupload/"), "file@\(file.path)"])
        #expect(multipart.output.contains("[a multipart/form-data body of "), "\(multipart.output)")
        try await sandbox.shutdown()
    }
}
