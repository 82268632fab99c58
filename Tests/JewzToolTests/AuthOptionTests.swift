import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

/// `jewz --auth` with each `--auth-type`, through the built binary.
@Suite struct AuthOptionTests {
    @Test func eachAuthTypeReachesItsEndpoint() async throws {
        let sandbox = try await Sandbox.start()
        let basic = try await runJewz(["--auth", "test:12345", sandbox.url("/hello_with_basic_auth")])
        #expect(basic.output == "Hello World", "\(basic.error)")
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
        #expect(bearer.output == "welcome", "\(bearer.error)")
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

    @Test func awsSigV4SignsWithTheKeyGivenOrTheEnvironments() async throws {
        let sandbox = try await Sandbox.start()
        let signed = try await runJewz(["--aws-sigv4", "aws:amz:eu-west-1:s3", "--auth", "AKIDEXAMPLE:secret", sandbox.url("/inspect/bucket/key")])
        #expect(signed.status == 0, "\(signed.error)")
        let inspection = try Inspection(data: Data(signed.output.utf8))
        let authorization = try #require(inspection.values("Authorization").first)
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/"))
        #expect(authorization.contains("/eu-west-1/s3/aws4_request, SignedHeaders=") && authorization.contains("Signature="))
        #expect(inspection.values("X-Amz-Content-SHA256") == ["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"])
        let fromEnvironment = try await runJewz(
            ["--aws-sigv4", "aws:amz:us-east-1:sts", sandbox.url("/inspect")],
            environment: ["AWS_ACCESS_KEY_ID": "ASIAEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "t0ken"])
        let temporary = try Inspection(data: Data(fromEnvironment.output.utf8))
        #expect(temporary.values("Authorization").first?.hasPrefix("AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/") == true, "\(fromEnvironment.error)")
        #expect(temporary.values("X-Amz-Security-Token") == ["t0ken"])
        let malformed = try await runJewz(["--aws-sigv4", "aws:eu-west-1", "--auth", "AKIDEXAMPLE:secret", sandbox.url("/inspect")])
        #expect(malformed.status != 0)
        #expect(malformed.error.contains("--aws-sigv4 takes aws:amz[:REGION[:SERVICE]]"))
        try await sandbox.shutdown()
    }

    @Test func awsSigV4ReadsTheScopeFromTheHostAndTheKeyFromAProfile() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-aws")
        defer { try? FileManager.default.removeItem(at: directory) }
        let credentials = directory.appendingPathComponent("credentials")
        try Data("[ci]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = s3cret\n".utf8).write(to: credentials)
        let environment = ["AWS_SHARED_CREDENTIALS_FILE": credentials.path, "AWS_PROFILE": "ci", "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""]
        // Offline: printed as it would go, with curl's reading of the host (service, then region).
        let run = try await runJewz(["--offline", "--aws-sigv4", "aws:amz", "https://s3.eu-west-1.amazonaws.com/bucket/key"], environment: environment)
        #expect(run.output.contains("Authorization: AWS4-HMAC-SHA256 Credential=AKIDPROFILE/"), "\(run.output) \(run.error)")
        #expect(run.output.contains("/eu-west-1/s3/aws4_request"), "\(run.output)")
        let regionGiven = try await runJewz(["--offline", "--aws-sigv4", "aws:amz:us-west-2", "https://sqs.eu-west-1.amazonaws.com/"], environment: environment)
        #expect(regionGiven.output.contains("/us-west-2/sqs/aws4_request"), "\(regionGiven.output)")
        let multiRegion = try await runJewz(["--offline", "--aws-sigv4", "aws:amz:*:s3", "https://mrap.accesspoint.s3-global.amazonaws.com/key"], environment: environment)
        #expect(multiRegion.output.contains("Authorization: AWS4-ECDSA-P256-SHA256 Credential=AKIDPROFILE/"), "\(multiRegion.output)")
        #expect(multiRegion.output.contains("X-Amz-Region-Set: *"), "\(multiRegion.output)")
        let unreadable = try await runJewz(["--offline", "--aws-sigv4", "aws:amz", "http://127.0.0.1:9/"], environment: environment)
        #expect(unreadable.status == 1)
        #expect(unreadable.error.contains("give aws:amz:REGION:SERVICE"), "\(unreadable.error)")
    }

    @Test func anS3FileUploadGoesInSignedChunks() async throws {
        let sandbox = try await Sandbox.start()
        let directory = try makeScratchDirectory(prefix: "jewz-aws")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("object.bin")
        try Data(repeating: 7, count: 100_000).write(to: file)
        let run = try await runJewz(["-u", "AKIDEXAMPLE:secret", "--aws-sigv4", "aws:amz:eu-west-1:s3", "PUT", sandbox.url("/inspect/bucket/object.bin"), "@" + file.path])
        #expect(run.status == 0, "\(run.error)")
        let inspection = try Inspection(data: Data(run.output.utf8))
        #expect(inspection.values("X-Amz-Content-SHA256") == ["STREAMING-AWS4-HMAC-SHA256-PAYLOAD"])
        #expect(inspection.values("X-Amz-Decoded-Content-Length") == ["100000"])
        #expect(inspection.values("Content-Encoding").first?.hasPrefix("aws-chunked") == true)
        #expect(inspection.body.hasPrefix("10000;chunk-signature="))
        try await sandbox.shutdown()
    }
}
