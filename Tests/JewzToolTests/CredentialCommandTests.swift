import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// Credentials as a user of the built `jewz` meets them: kept to the host they are for across
/// redirects, never printed when jewz found them itself, read from files that only their owner
/// can read, and sent to an authorization server only over TLS and never through a redirect.
@Suite struct CredentialCommandTests {
    /// `/redirect-to` on `sandbox`, a 307 to `target`.
    private func redirect(from sandbox: Sandbox, to target: String) -> String {
        var components = URLComponents(string: sandbox.url("/redirect-to"))
        components?.queryItems = [.init(name: "url", value: target), .init(name: "status", value: "307")]
        return components?.string ?? ""
    }

    /// A file holding `text`, readable by its owner alone, in a scratch directory of its own.
    private func secretFile(_ name: String, holding text: String) throws -> URL {
        let file = try makeScratchDirectory(prefix: "jewz-secret").appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        chmod(file.path, 0o600)
        return file
    }

    /// The headers `/inspect` printed: their names, lowercased, and values.
    private func inspectedHeaders(_ output: String) throws -> [String: String] {
        let inspection = try Inspection(data: Data(output.utf8))
        return Dictionary(inspection.headers.compactMap { $0.count == 2 ? ($0[0].lowercased(), $0[1]) : nil }) { first, _ in first }
    }

    @Test func aSignatureStaysWithItsHostUnlessTheLocationIsTrusted() async throws {
        let sandbox = try await Sandbox.start()
        let other = try await Sandbox.start()
        let signing = ["--aws-sigv4", "aws:amz:us-east-1:s3", "-u", "AKIDEXAMPLE:secret", "--follow", "--print", "b"]
        let away = redirect(from: sandbox, to: other.url("/inspect/bucket/key"))
        for method in ["GET", "DELETE"] {
            let run = try await runJewz(signing + [method, away], environment: ["AWS_SESSION_TOKEN": "st-hidden"])
            #expect(run.status == 0, "\(run.error)")
            let headers = try inspectedHeaders(run.output)
            #expect(headers["authorization"] == nil && headers["x-amz-date"] == nil && headers["x-amz-content-sha256"] == nil, "\(headers)")
        }
        let here = try await runJewz(signing + [redirect(from: sandbox, to: sandbox.url("/inspect/bucket/key"))])
        #expect(try inspectedHeaders(here.output)["authorization"]?.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") == true, "\(here.output)")
        let trusted = try await runJewz(signing + ["--location-trusted", away])
        #expect(try inspectedHeaders(trusted.output)["authorization"]?.hasPrefix("AWS4-HMAC-SHA256") == true, "\(trusted.output)")
        try await sandbox.shutdown()
        try await other.shutdown()
    }

    @Test func aHeaderTypedOrAPasswordGoesNoFurtherThanItsHost() async throws {
        let sandbox = try await Sandbox.start()
        let other = try await Sandbox.start()
        let away = redirect(from: sandbox, to: other.url("/inspect"))
        let typed = [(["-u", "test:12345"], []), (["-u", "t0k3n", "--auth-type", "bearer"], []), ([], ["Authorization:Bearer typed"]), ([], ["Cookie:id=typed"])]
        for (options, items) in typed {
            let credentials = options + items
            let run = try await runJewz(options + ["--follow", "--print", "b", away] + items)
            #expect(run.status == 0, "\(credentials): \(run.error)")
            let headers = try inspectedHeaders(run.output)
            #expect(headers["authorization"] == nil && headers["cookie"] == nil, "\(credentials): \(headers)")
        }
        let trusted = try await runJewz(["-u", "test:12345", "--location-trusted", "--follow", "--print", "b", away])
        #expect(try inspectedHeaders(trusted.output)["authorization"] == "Basic dGVzdDoxMjM0NQ==")
        try await sandbox.shutdown()
        try await other.shutdown()
    }

    @Test func aSessionTokenFromTheEnvironmentAndAPresignedURLsSecretsAreNotPrinted() async throws {
        let sandbox = try await Sandbox.start()
        let verbose = try await runJewz(
            ["-v", "--log", "--aws-sigv4", "aws:amz:us-east-1:s3", sandbox.url("/inspect/bucket/key")],
            environment: ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "sk-hidden", "AWS_SESSION_TOKEN": "st-hidden"])
        #expect(verbose.status == 0, "\(verbose.error)")
        #expect(verbose.output.contains("X-Amz-Security-Token: <redacted>"), "\(verbose.output)")
        // What /inspect echoes back is the server's answer, not jewz's print of the request.
        let printedRequest = verbose.output.components(separatedBy: "\n\n").first ?? ""
        #expect(!printedRequest.contains("st-hidden") && !verbose.error.contains("st-hidden") && !verbose.error.contains("sk-hidden"))

        let presigned = sandbox.url("/status/404?X-Amz-Credential=AKIDSECRETKEY%2F20261129%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature=sig-hidden&X-Amz-Security-Token=tok-hidden")
        let logged = try await runJewz(["--log", presigned])
        #expect(logged.status == 4)
        #expect(logged.error.contains("X-Amz-Signature=***") && logged.error.contains("X-Amz-Credential=***%2F20261129"), "\(logged.error)")
        #expect(!logged.error.contains("hidden") && !logged.error.contains("AKIDSECRETKEY"), "\(logged.error)")
        try await sandbox.shutdown()
    }

    @Test func netrcGivesTheHostItsLoginFromAFileOnlyItsOwnerReads() async throws {
        let sandbox = try await Sandbox.start()
        let netrc = try secretFile(".netrc", holding: "machine elsewhere.example login x password y\nmachine 127.0.0.1\n  login test\n  password 12345\n")
        defer { try? FileManager.default.removeItem(at: netrc.deletingLastPathComponent()) }
        let run = try await runJewz(["--netrc-file", netrc.path, "-v", sandbox.url("/hello_with_basic_auth")])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("Authorization: Basic <redacted>") && !run.output.contains("dGVzdDoxMjM0NQ=="), "\(run.output)")
        let fromHome = try await runJewz(["--netrc", "--print", "b", sandbox.url("/hello_with_basic_auth")], environment: ["HOME": netrc.deletingLastPathComponent().path])
        #expect(fromHome.output == "Hello World", "\(fromHome.error)")

        chmod(netrc.path, 0o644)
        let exposed = try await runJewz(["--netrc-file", netrc.path, sandbox.url("/hello_with_basic_auth")])
        #expect(exposed.status == 1)
        #expect(exposed.error.contains("others can read it; chmod 600"), "\(exposed.error)")
        try await sandbox.shutdown()
    }

    @Test func theClientSecretComesFromAFileOrTheEnvironment() async throws {
        let sandbox = try await Sandbox.start()
        let secret = try secretFile("secret", holding: "s3cret\n")
        defer { try? FileManager.default.removeItem(at: secret.deletingLastPathComponent()) }
        let grant = ["--oauth2", "client-credentials", "--token-url", sandbox.url("/oauth/token"), "--client", "jewz-confidential"]
        let fromFile = try await runJewz(grant + ["--client-secret-file", secret.path, sandbox.url("/oauth/resource")])
        #expect(fromFile.status == 0, "\(fromFile.error)")
        let fromEnvironment = try await runJewz(grant + [sandbox.url("/oauth/resource")], environment: ["JEWZ_OAUTH_CLIENT_SECRET": "s3cret"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.error)")
        chmod(secret.path, 0o640)
        let exposed = try await runJewz(grant + ["--client-secret-file", secret.path, sandbox.url("/oauth/resource")])
        #expect(exposed.status == 1 && exposed.error.contains("chmod 600"), "\(exposed.error)")
        try await sandbox.shutdown()
    }

    @Test func anAuthorizationServerIsReachedOverTLSAndNeverThroughARedirect() async throws {
        let sandbox = try await Sandbox.start()
        let other = try await Sandbox.start()
        let client = ["--client", "jewz-confidential:s3cret", "--client-auth", "post"]
        let redirected = try await runJewz(
            ["--oauth2", "client-credentials", "--token-url", redirect(from: sandbox, to: other.url("/oauth/token"))] + client + [sandbox.url("/oauth/resource")])
        #expect(redirected.status != 0)
        #expect(redirected.error.contains("follow none"), "\(redirected.error)")
        #expect(other.router.oauthTokensIssued.isEmpty)

        let plain = try await runJewz(["--oauth2", "client-credentials", "--issuer", "http://auth.example.com"] + client + [sandbox.url("/oauth/resource")])
        #expect(plain.status == 1)
        #expect(plain.error.contains("is not https"), "\(plain.error)")
        // Without a scheme an issuer is https: the Sandbox, which speaks plain HTTP, cannot answer it.
        let host = sandbox.url("").replacingOccurrences(of: "http://", with: "")
        let schemeless = try await runJewz(["--oauth2", "client-credentials", "--issuer", host] + client + [sandbox.url("/oauth/resource")])
        #expect(schemeless.status == 2)
        #expect(schemeless.error.contains("TLS handshake with 127.0.0.1"), "\(schemeless.error)")

        // An issuer whose metadata redirects to another origin is not believed.
        let location = other.url("/.well-known/oauth-authorization-server")
        let redirecting = try await ScriptedServer.start { _ in
            [.send("HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 0\r\n\r\n")]
        }
        let moved = try await runJewz(["--oauth2", "client-credentials", "--issuer", redirecting.url("")] + client + [sandbox.url("/oauth/resource")])
        #expect(moved.status != 0 && moved.error.contains("to another origin"), "\(moved.error)")
        #expect(other.router.oauthTokensIssued.isEmpty)
        try await redirecting.shutdown()
        try await sandbox.shutdown()
        try await other.shutdown()
    }

    @Test func aTokenStoreOfAnotherServerOrWithoutAHomeIsRefused() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("token.json").path
        let client = ["--client", "jewz-confidential:s3cret", "--token-store", store]
        let kept = try await runJewz(["--oauth2", "client-credentials", "--token-url", sandbox.url("/oauth/token")] + client + [sandbox.url("/oauth/resource")])
        #expect(kept.status == 0, "\(kept.error)")
        let other = try await runJewz(["--oauth2", "client-credentials", "--token-url", sandbox.url("/oauth/token?tenant=2")] + client + [sandbox.url("/oauth/resource")])
        #expect(other.status == 1)
        #expect(other.error.contains("holds a token of \(sandbox.url("/oauth/token"))"), "\(other.error)")

        // A directory others can write to (as /tmp) could hold a token another user planted.
        let shared = directory.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        chmod(shared.path, 0o1777)
        let planted = try await runJewz(
            ["--oauth2", "client-credentials", "--token-url", sandbox.url("/oauth/token"), "--client", "jewz-confidential:s3cret", "--token-store",
             shared.appendingPathComponent("token.json").path, sandbox.url("/oauth/resource")])
        #expect(planted.status == 1 && planted.error.contains("others can write to it"), "\(planted.error)")

        let homeless = try await runJewz(
            ["auth", "status", "--token-url", sandbox.url("/oauth/token"), "--client", "jewz-public"], environment: ["HOME": "", "XDG_CONFIG_HOME": ""])
        #expect(homeless.status == 1)
        #expect(homeless.error.contains("give --token-store"), "\(homeless.error)")
        try await sandbox.shutdown()
    }

    @Test func aDeviceCodeFromAHostileServerCannotRewriteTheTerminal() async throws {
        let device = #"{"device_code":"d","user_code":"AB\u001b]0;pwned\u0007CD","verification_uri":"https://auth.example/device","expires_in":60,"interval":1}"#
        let denied = #"{"error":"access_denied"}"#
        let server = try await ScriptedServer.start { request in
            let body = request.target.hasPrefix("/device") ? device : denied
            let status = request.target.hasPrefix("/device") ? "200 OK" : "400 Bad Request"
            return [.send("HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")]
        }
        let run = try await runJewz(
            ["--oauth2", "device", "--token-url", server.url("/token"), "--device-url", server.url("/device"), "--client", "c", "--token-store",
             FileManager.default.temporaryDirectory.appendingPathComponent("jewz-\(UUID().uuidString)/t.json").path, server.url("/resource")])
        #expect(run.status == 4, "\(run.error)")
        #expect(run.error.contains(#"AB\u{1B}]0;pwned\u{7}CD"#), "\(run.error)")
        #expect(!run.error.contains("\u{1B}"))
        try await server.shutdown()
    }
}
