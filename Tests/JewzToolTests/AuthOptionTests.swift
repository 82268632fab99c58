import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz --auth` with each `--auth-type`, through the built binary.
@Suite struct AuthOptionTests {
    @Test func eachAuthTypeReachesItsEndpoint() async throws {
        let sandbox = try await Sandbox.start()
        let basic = try await runJewz(["--auth", "test:12345", sandbox.url("/hello_with_basic_auth")])
        #expect(basic.output == "Hello World\n", "\(basic.error)")
        let digest = try await runJewz(["--auth", "ada:pw", "--auth-type", "digest", sandbox.url("/digest-auth/auth/ada/pw/SHA-256")])
        #expect(digest.status == 0, "\(digest.error)")
        #expect(digest.output.contains(#""authenticated":true"#))
        let wrong = try await runJewz(["--auth", "ada:no", "--auth-type", "digest", sandbox.url("/digest-auth/auth/ada/pw/MD5")])
        #expect(wrong.status == 4)
        let ntlm = try await runJewz(["--auth", "CORP\\ada:pw", "--auth-type", "ntlm", sandbox.url("/ntlm-auth/ada/pw")])
        #expect(ntlm.output.contains(#""user":"ada","domain":"CORP""#), "\(ntlm.error)")
        let wrongNTLM = try await runJewz(["--auth", "ada:no", "--auth-type", "ntlm", sandbox.url("/ntlm-auth/ada/pw")])
        #expect(wrongNTLM.status == 4)
        // auto answers whichever the server asks for.
        for url in [sandbox.url("/digest-auth/auth/test/12345/MD5"), sandbox.url("/ntlm-auth/test/12345"), sandbox.url("/hello_with_basic_auth")] {
            let auto = try await runJewz(["--auth", "test:12345", "--auth-type", "auto", url])
            #expect(auto.status == 0, "\(url): \(auto.error)")
        }
        let issued = try await runJewz(["--print", "b", sandbox.url("/token/issue")])
        let token = try #require((try JSONSerialization.jsonObject(with: Data(issued.output.utf8)) as? [String: String])?["token"])
        let bearer = try await runJewz(["--auth", token, "--auth-type", "bearer", sandbox.url("/token/protected")])
        #expect(bearer.output == "welcome\n", "\(bearer.error)")
        try await sandbox.shutdown()
    }

    @Test func aMissingPasswordIsAskedForOnTheTerminalWithoutEcho() async throws {
        let sandbox = try await Sandbox.start()
        let run = try await runJewzOnTerminal(
            ["--auth", "test", sandbox.url("/hello_with_basic_auth")], typing: "12345", after: "jewz: password for test: ")
        #expect(!run.timedOut)
        #expect(run.status == 0, "\(run.screen)")
        #expect(run.screen.contains("Hello World"), "\(run.screen)")
        #expect(!run.screen.contains("12345"), "the password was echoed: \(run.screen)")
        let wrong = try await runJewzOnTerminal(
            ["--auth", "test", sandbox.url("/hello_with_basic_auth")], typing: "nope", after: "jewz: password for test: ")
        #expect(wrong.status == 4, "\(wrong.screen)")
        try await sandbox.shutdown()
    }

    @Test func aMissingPasswordOffATerminalIsAUsageError() async throws {
        let result = try await runJewz(["--auth", "ada", "http://127.0.0.1:9/"])
        #expect(result.status == 1)
        #expect(result.error.contains("--auth ada:PASSWORD"))
        let badType = try await runJewz(["--auth", "a:b", "--auth-type", "kerberos", "http://127.0.0.1:9/"])
        #expect(badType.status == 1)
    }
}
