import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz --config FILE`, through the built binary: the file's settings, the JEWZ_ environment
/// over them, a bad key named.
@Suite struct ConfigFileCommandTests {
    @Test func aConfigFileAndTheEnvironmentSetTheSession() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let json = directory.appendingPathComponent("jewz.json")
        try Data(#"{"retry": {"maximumCount": 0, "baseDelay": 0.01}}"#.utf8).write(to: json)

        let once = try await runJewz(["--config", json.path, sandbox.url("/counter?key=file&fail=1")])
        #expect(once.status != 0, "\(once.output)")
        #expect(sandbox.router.requestCount(forKey: "file") == 1, "retry.maximumCount 0 from the file")

        let twice = try await runJewz(["--config", json.path, sandbox.url("/counter?key=env&fail=1")], environment: ["JEWZ_RETRY_MAXIMUM_COUNT": "1"])
        #expect(twice.status == 0, "\(twice.error)")
        #expect(sandbox.router.requestCount(forKey: "env") == 2, "the environment goes over the file")

        // A redirect is shown unless asked for, by --follow or by the file.
        let redirect = sandbox.url("/redirect/1")
        let shown = try await runJewz(["--config", json.path, "--print", "hb", redirect])
        #expect(shown.output.contains("302") && !shown.output.contains("Hello"), "\(shown.output)")
        let following = directory.appendingPathComponent("follow.json")
        try Data(#"{"redirects": {"follow": true}}"#.utf8).write(to: following)
        let followed = try await runJewz(["--config", following.path, redirect])
        #expect(followed.status == 0 && followed.output.contains("Hello"), "\(followed.output)")

        let yaml = directory.appendingPathComponent("jewz.yaml")
        try Data("timeout:\n  connect: soon\n".utf8).write(to: yaml)
        let wrong = try await runJewz(["--config", yaml.path, sandbox.url("/hello/")])
        #expect(wrong.status == 1 && wrong.error.contains("'timeout.connect'"), "\(wrong.error)")
        try await sandbox.shutdown()
    }
}
