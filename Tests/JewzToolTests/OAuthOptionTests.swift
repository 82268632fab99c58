import Foundation
import JewzHTTPCore
import JewzLocking
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz --oauth2` and `jewz auth` through the built binary, against the Sandbox's
/// authorization server, with the user's part (approving a device, following the sign-in URL)
/// played by the test.
@Suite struct OAuthOptionTests {
    @Test func clientCredentialsWithEachClientAuthentication() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-oauth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("client.pem")
        try Data(SandboxOAuthClients.jwtClientKeyPEM.utf8).write(to: key)
        chmod(key.path, 0o600)
        let server = ["--issuer", sandbox.url("")]
        for client in [["--client", "jewz-confidential:s3cret"], ["--client", "jewz-confidential:s3cret", "--client-auth", "post"],
            ["--client", "jewz-jwt", "--client-key", key.path]]
        {
            let run = try await runJewz(["--oauth2", "client-credentials"] + server + client + ["--scope", "read", sandbox.url("/oauth/resource")])
            #expect(run.status == 0, "\(client): \(run.error)")
            #expect(run.output.contains(#""scope":"read""#), "\(run.output)")
        }
        let wrong = try await runJewz(["--oauth2", "client-credentials"] + server + ["--client", "jewz-confidential:nope", sandbox.url("/oauth/resource")])
        #expect(wrong.status == 4)
        #expect(wrong.error.contains("invalid_client") && wrong.error.contains("Check the client ID"), "\(wrong.error)")
        #expect(!wrong.error.contains("nope"))
        try await sandbox.shutdown()
    }

    @Test func verboseOutputAndTheLogShowNoTokenOrSecret() async throws {
        let sandbox = try await Sandbox.start()
        let run = try await runJewz([
            "-v", "--log", "--oauth2", "client-credentials", "--token-url", sandbox.url("/oauth/token"), "--client", "jewz-confidential:s3cret",
            "--client-auth", "post", sandbox.url("/oauth/resource"),
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("Authorization: Bearer <redacted>"), "\(run.output)")
        for shown in [run.output, run.error] {
            #expect(!shown.contains("s3cret") && !shown.contains("at-"), "\(shown)")
        }
        try await sandbox.shutdown()
    }

    @Test func aDeviceSignInIsKeptRefreshedAndRevoked() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-oauth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["XDG_CONFIG_HOME": directory.path]
        let server = [sandbox.url(""), "--client", "jewz-public"]
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        let login = try await runJewzActing(["auth", "login"] + server + ["--scope", "profile"], environment: environment) { line in
            guard let url = line.split(separator: " ").last.flatMap({ URL(string: String($0)) }), url.query?.contains("user_code=") == true else {
                return
            }
            _ = try await session.send(HTTPRequest(url: url))
        }
        #expect(login.status == 0, "\(login.error)")
        #expect(login.output.contains("Signed in as jewz-public"), "\(login.output)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("jewz/oauth").path)
        #expect(kept.count == 1)

        let stored = ["--oauth2", "stored", "--issuer", sandbox.url(""), "--client", "jewz-public", sandbox.url("/oauth/resource")]
        #expect(try await runJewz(stored, environment: environment).output.contains(#""scope":"profile""#))
        _ = try await session.send(HTTPRequest(url: try #require(URL(string: sandbox.url("/oauth/expire"))), method: .post))
        let refreshed = try await runJewz(stored, environment: environment)
        #expect(refreshed.status == 0, "\(refreshed.error)")
        #expect(sandbox.router.oauthTokensIssued["refresh_token"] == 1)

        let status = try await runJewz(["auth", "status"] + server, environment: environment)
        #expect(status.output.contains("scopes: profile"), "\(status.output)")
        let logout = try await runJewz(["auth", "logout"] + server, environment: environment)
        #expect(logout.status == 0, "\(logout.error)")
        let after = try await runJewz(stored, environment: environment)
        #expect(after.status == 4)
        #expect(after.error.contains("jewz auth login"), "\(after.error)")
        try await session.shutdown()
        try await sandbox.shutdown()
    }

    @Test func aBrowserSignInComesBackThroughTheLoopback() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-oauth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        let login = try await runJewzActing(
            ["auth", "login", sandbox.url(""), "--client", "jewz-public", "--browser"], environment: ["XDG_CONFIG_HOME": directory.path]
        ) { line in
            let word = line.trimmingCharacters(in: .whitespaces)
            guard word.contains("/oauth/authorize?"), let url = URL(string: word) else { return }
            // The browser: the Sandbox consents and redirects it to jewz's listener.
            _ = try await session.send(HTTPRequest(url: url))
        }
        #expect(login.status == 0, "\(login.error)")
        #expect(login.output.contains("Signed in as jewz-public"), "\(login.output)")
        #expect(sandbox.router.oauthTokensIssued["authorization_code"] == 1)
        try await session.shutdown()
        try await sandbox.shutdown()
    }
}

/// Runs the built `jewz`, handing each line it writes on standard error to `act` (as a person
/// who reads a prompt and acts elsewhere), and collects its output.
func runJewzActing(
    _ arguments: [String], environment: [String: String] = [:], timeLimit: Duration = .seconds(60),
    act: @escaping @Sendable (String) async throws -> Void
) async throws -> JewzRun {
    let process = try ChildProcess.spawn(jewzExecutable.path, arguments: arguments, environment: childEnvironment.merging(environment) { $1 })
    try process.standardInput?.close()
    let (watchdog, record) = killing(process, after: timeLimit)
    let (lines, continuation) = AsyncStream<String>.makeStream()
    let errorText = Mutex("")
    onOwnThread {
        var pending = Data()
        while let chunk = process.standardError?.availableData, !chunk.isEmpty {
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                errorText.withLock { $0 += line + "\n" }
                continuation.yield(line)
            }
        }
        continuation.finish()
    }
    let output = Mutex(Data())
    let drained = DispatchGroup()
    onOwnThread(joining: drained) { output.withLock { $0 = process.standardOutput.readDataToEndOfFile() } }
    for await line in lines { try await act(line) }
    let termination = try await runBlocking {
        drained.wait()
        return process.waitForExit()
    }
    watchdog.cancel()
    return JewzRun(
        status: termination.exitStatus ?? -1, signal: termination.signal, output: String(decoding: output.withLock { $0 }, as: UTF8.self),
        error: errorText.withLock { $0 }, timedOut: record.killed)
}
