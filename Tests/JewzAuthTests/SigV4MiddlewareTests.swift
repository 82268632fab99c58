import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

/// `AWSSignatureV4` as a session uses it: the suite's signature for an `HTTPRequest`, the
/// request on the wire exactly as signed, a new signature on each retry, presigned URLs.
@Suite struct SigV4MiddlewareTests {
    static let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let suiteDate = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z

    @Test func anHTTPRequestIsSignedAsTheSuiteSigns() throws {
        // The suite's post-x-www-form-urlencoded-parameters: a body, its hash signed.
        var request = HTTPRequest(url: try #require(URL(string: "https://example.amazonaws.com/")), method: .post)
        request.headers["Content-Type"] = "application/x-www-form-urlencoded; charset=utf-8"
        request.headers["Content-Length"] = "13"
        request.data = Data("Param1=value1".utf8)
        let signer = AWSSignatureV4(credentials: Self.credentials, region: "us-east-1", service: "service")
        let signed = signer.signed(request, at: Self.suiteDate)
        #expect(signed.headers["X-Amz-Date"] == "20150830T123600Z")
        #expect(signed.headers["Authorization"]
            == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
            + "SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date, "
            + "Signature=328d1b9eaadca9f5818ef05e8392801e091653bafec24fcab71e7344e7f51422")
    }

    @Test func whatGoesOnTheWireIsWhatWasSigned() async throws {
        let token = AWSCredentials(accessKeyID: "ASIAEXAMPLE", secretAccessKey: "s3cret", sessionToken: "t0ken/+=")
        let signer = AWSSignatureV4(credentials: token, region: "eu-west-1", service: "s3")
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [signer]
        try await withSandbox(configuration: configuration) { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/inspect/photos/a%20b.jpg?versionId=3&acl")))
            let response = try await session.send(HTTPRequest(url: url, method: .put, data: Data("pixels".utf8)))
            let wire = try Inspection(response)
            #expect(wire.values("X-Amz-Security-Token") == ["t0ken/+="])
            #expect(wire.values("X-Amz-Content-SHA256") == [SigV4Canonicalization.hexSHA256(Data("pixels".utf8))])
            // The server's view of the request, signed again, gives the signature it was sent.
            let authorization = try #require(wire.values("Authorization").first)
            let names = try #require(authorization.split(separator: " ").first { $0.hasPrefix("SignedHeaders=") })
                .dropFirst("SignedHeaders=".count).dropLast().split(separator: ";").map(String.init)
            let fields = names.map { name in (name: name, value: wire.values(name).joined(separator: ",")) }
            let target = wire.uri.split(separator: "?", maxSplits: 1).map(String.init)
            let timestamp = try #require(wire.values("X-Amz-Date").first)
            let canonicalization = SigV4Canonicalization(region: "eu-west-1", service: "s3", normalizesPath: false, encodesPathTwice: false)
            let canonical = canonicalization.canonicalRequest(
                method: wire.method, path: target[0], query: target.count > 1 ? target[1] : "", fields: fields,
                payloadHash: SigV4Canonicalization.hexSHA256(Data("pixels".utf8)))
            let signature = canonicalization.signature(
                of: canonicalization.stringToSign(canonicalRequest: canonical, timestamp: timestamp), secret: "s3cret", timestamp: timestamp)
            #expect(authorization.hasSuffix("Signature=\(signature)"))
            #expect(names.contains("host") && names.contains("x-amz-security-token") && !names.contains("user-agent"))
        }
    }

    @Test func eachAttemptIsSignedAgain() async throws {
        let clock = Clock()
        let signer = AWSSignatureV4(credentials: Self.credentials, region: "us-east-1", service: "service", clock: { clock.tick() })
        var configuration = HTTPSession.Configuration()
        configuration.networkMiddleware = [signer]
        configuration.retryPolicy = quickPolicy()
        try await withSandbox(configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/counter"), parameters: ["key": "sigv4", "fail": 1], session: session)
            #expect(response.text == "attempt 2 succeeds")
            #expect(clock.ticks == 2, "one signature per attempt")
        }
    }

    @Test func aPresignedURLCarriesItsSignatureInTheQuery() throws {
        // AWS's documented example of a presigned S3 GET (test.txt, 24 May 2013, valid a day).
        let documented = AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
        let signer = AWSSignatureV4(credentials: documented, region: "us-east-1", service: "s3")
        let request = HTTPRequest(url: try #require(URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")))
        let url = signer.presignedURL(for: request, lifetime: .seconds(86_400), at: Date(timeIntervalSince1970: 1_369_353_600))
        let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(query.first { $0.name == "X-Amz-Credential" }?.value == "AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request")
        #expect(query.first { $0.name == "X-Amz-Expires" }?.value == "86400")
        #expect(query.first { $0.name == "X-Amz-SignedHeaders" }?.value == "host")
        #expect(query.first { $0.name == "X-Amz-Signature" }?.value == "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test func credentialsComeFromTheStandardVariablesAndNeverShowTheirSecret() {
        let credentials = AWSCredentials.environment([
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "s3cret", "AWS_SESSION_TOKEN": "t0ken",
        ])
        #expect(credentials == AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "s3cret", sessionToken: "t0ken"))
        #expect(AWSCredentials.environment(["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE"]) == nil)
        let shown = String(describing: credentials)
        #expect(!shown.contains("s3cret") && !shown.contains("t0ken") && shown.contains("AKIDEXAMPLE"))
    }

    @Test func aProfileOfTheSharedCredentialsFileIsReadAsTheCLIReadsIt() throws {
        let directory = try makeScratchDirectory(prefix: "jewz-aws")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("credentials")
        try Data("""
            # the CLI's file
            [default]
            aws_access_key_id = AKIDDEFAULT
            aws_secret_access_key = d3fault

            [ci]
            aws_access_key_id=ASIACI
            aws_secret_access_key=c1/secret=
            aws_session_token = t0ken
            [broken]
            aws_access_key_id = AKIDONLY
            """.utf8).write(to: file)
        let variables = ["AWS_SHARED_CREDENTIALS_FILE": file.path]
        #expect(AWSCredentials.profile(variables: variables) == AWSCredentials(accessKeyID: "AKIDDEFAULT", secretAccessKey: "d3fault"))
        #expect(AWSCredentials.profile(variables: variables.merging(["AWS_PROFILE": "ci"]) { $1 })
            == AWSCredentials(accessKeyID: "ASIACI", secretAccessKey: "c1/secret=", sessionToken: "t0ken"))
        #expect(AWSCredentials.profile("broken", variables: variables) == nil)
        #expect(AWSCredentials.profile("missing", variables: variables) == nil)
        #expect(AWSCredentials.profile(file: directory.appendingPathComponent("none"), variables: [:]) == nil)
    }

    /// Dates a second apart, counting how many were asked for.
    final class Clock: Sendable {
        private let count = Mutex(0)
        var ticks: Int { count.withLock { $0 } }
        func tick() -> Date { Date(timeIntervalSince1970: Double(1_440_938_160 + count.withLock { $0 += 1; return $0 })) }
    }
}
