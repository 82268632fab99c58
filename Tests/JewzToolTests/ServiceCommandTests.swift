import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz service PROFILE RESOURCE [items] [--env|--base-url]`, `--list` and `--verify`, run as a
/// user runs them, with a GitHub-style JSON profile and the Sandbox's own OpenAPI document.
@Suite struct ServiceCommandTests {
    /// A profile file in a scratch directory whose `local` environment is the Sandbox.
    private func writeProfile(for sandbox: Sandbox) throws -> URL {
        let profile: [String: Any] = [
            "BaseURL": "https://api.github.example",
            "Environments": ["local": sandbox.baseURL],
            "Headers": ["Accept": "application/json"],
            "Resources": [
                ["Name": "search", "URITemplate": "/inspect{?q,tags*}", "ResponseProcessor": "json"],
                ["Name": "upload", "URITemplate": "/dumpupload/", "Method": "POST", "RequestProcessor": "data"],
                ["Name": "create", "URITemplate": "/dumpupload/", "Method": "POST", "RequestProcessor": "json"],
            ],
        ]
        // The caller removes the directory (`file.deletingLastPathComponent()`).
        let file = try makeScratchDirectory().appendingPathComponent("github.json")
        try JSONSerialization.data(withJSONObject: profile).write(to: file)
        return file
    }

    @Test func aResourceIsCalledWithTemplateValuesAndHeaders() async throws {
        let sandbox = try await Sandbox.start()
        let profileFile = try writeProfile(for: sandbox)
        defer { try? FileManager.default.removeItem(at: profileFile.deletingLastPathComponent()) }
        let profile = profileFile.path
        let run = try await runJewz(["service", profile, "search", "q=jewz ruxin", #"tags:=["a","b"]"#, "X-Extra:1", "--env", "local"])
        #expect(run.status == 0, "\(run.error)")
        let seen = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        #expect(seen?["uri"] as? String == "/inspect?q=jewz%20ruxin&tags=a&tags=b")
        let headers = seen?["headers"] as? [[String]] ?? []
        #expect(headers.contains(["X-Extra", "1"]))
        #expect(headers.contains(["Accept", "application/json"]))

        let upload = try await runJewz(["service", profile, "upload", "--base-url", sandbox.baseURL, "--raw", "raw bytes"])
        #expect(upload.output == "raw bytes", "\(upload.error)")
        let created = try await runJewz(["service", profile, "create", "--env", "local", "--raw", #"{"name":"Ada"}"#, "--print", "hb"])
        #expect(created.output.contains("Content-Type: application/json"), "\(created.output)")
        #expect(created.output.contains(#"{"name":"Ada"}"#))
        try await sandbox.shutdown()
    }

    @Test func anOpenAPIDocumentIsListedAndCalledFromItsURL() async throws {
        let sandbox = try await Sandbox.start()
        let document = sandbox.url("/openapi.yaml")
        let list = try await runJewz(["service", document, "--list"])
        #expect(list.status == 0, "\(list.error)")
        let lines = list.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("entry    GET   /cached/{key}{?type,delay}"), "\(lines)")
        #expect(lines.contains("inspect  GET   /inspect{?q,tags*,page%2Dsize}"))
        #expect(lines.contains("upload   POST  /dumpupload/"))
        #expect(lines.last == "base URL: \(sandbox.baseURL); environments: local=\(sandbox.baseURL)")

        let entry = try await runJewz(["service", document, "entry", "key=ada", "type=json"])
        #expect(entry.output == #"{"key":"ada","hit":1}"#, "\(entry.error)")
        let missing = try await runJewz(["service", document, "status", "code:=404"])
        #expect(missing.status == 4)
        #expect(missing.messages == ["jewz: the server answered 404 Not Found"])
        try await sandbox.shutdown()
    }

    @Test func verifyPrintsEveryProblemOneALine() async throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("broken.json")
        try Data(#"{"BaseURL": 7, "Resources": [{"Name": "a", "URITemplate": "/a{?q"}, {"Name": "a", "URITemplate": "/b", "Method": "get"}]}"#.utf8)
            .write(to: broken)
        let run = try await runJewz(["service", broken.path, "--verify"])
        #expect(run.status == 1)
        #expect(run.output.split(separator: "\n").map(String.init) == [
            "BaseURL: a string is expected, not a number (wrongType)",
            #"Resources[0].URITemplate: "/a{?q" does not parse: Unclosed expression at offset 2: add the missing '}'. (invalidTemplate)"#,
            #"Resources[1].Method: "get" is not an HTTP method (methods are upper case: GET) (unknownMethod)"#,
        ])
        #expect(run.messages == ["jewz: 3 problems in \(broken.path)"])

        let sandbox = try await Sandbox.start()
        let validFile = try writeProfile(for: sandbox)
        defer { try? FileManager.default.removeItem(at: validFile.deletingLastPathComponent()) }
        let valid = try await runJewz(["service", validFile.path, "--verify"])
        #expect(valid.status == 0)
        #expect(valid.output.hasSuffix(": valid, 3 resources\n"), "\(valid.output)")
        try await sandbox.shutdown()
    }

    @Test func mistakesAreOneLineAndExitStatusOne() async throws {
        let sandbox = try await Sandbox.start()
        let profileFile = try writeProfile(for: sandbox)
        defer { try? FileManager.default.removeItem(at: profileFile.deletingLastPathComponent()) }
        let profile = profileFile.path
        let unknown = try await runJewz(["service", profile, "issues", "--env", "local"])
        #expect(unknown.status == 1)
        #expect(unknown.error.contains(#"The service has no resource "issues"; it has "search", "upload", "create"."#), "\(unknown.error)")
        let environment = try await runJewz(["service", profile, "search", "--env", "qa"])
        #expect(environment.status == 1)
        #expect(environment.error.contains(#"no environment "qa""#))
        let item = try await runJewz(["service", profile, "search", "q==x", "--env", "local"])
        #expect(item.status == 1)
        #expect(item.error.contains("'q==x' is not a value or a header"))
        let absent = try await runJewz(["service", "/nonexistent/profile.json", "--list"])
        #expect(absent.status == 1)
        #expect(absent.messages.first?.hasPrefix("jewz: the profile /nonexistent/profile.json cannot be read") == true)
        try await sandbox.shutdown()
    }
}
