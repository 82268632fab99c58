import Foundation
import Jewzruxin
import JewzSandbox
import Synchronization

/// The tour's steps about authentication: challenges answered, and tokens that refresh.
extension TourStep {
    static func authSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "AWS Signature Version 4 signs each request on the wire, for S3 and every AWS API; a presigned URL carries it",
                code: """
                    let key = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")   // or .environment()
                    let s3 = AWSSignatureV4(credentials: key, region: "eu-west-1", service: "s3")
                    let session = HTTPSession(configuration: .init { $0.networkMiddleware = [s3] })
                    let seen = try await HTTPCycle.put(url("/inspect/bucket/report.txt"), requestObject: Data("hello".utf8), session: session)
                    let link = s3.presignedURL(for: HTTPRequest(url: URL(string: url("/bucket/report.txt"))!))
                    """
            ) {
                let key = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
                let s3 = AWSSignatureV4(credentials: key, region: "eu-west-1", service: "s3")
                let session = HTTPSession(configuration: .init { $0.networkMiddleware = [s3] })
                let seen = try await HTTPCycle.put(url("/inspect/bucket/report.txt"), requestObject: Data("hello".utf8), session: session)
                try await session.shutdown()
                let fields = seen.json?["headers"].array ?? []
                let authorization = fields.first { $0[0].string == "Authorization" }?[1].string ?? ""
                let link = URL(string: url("/bucket/report.txt")).map { s3.presignedURL(for: HTTPRequest(url: $0)) }
                let scoped = authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/") && authorization.contains("/eu-west-1/s3/aws4_request")
                return Outcome(
                    "Authorization \(scoped ? "scoped to eu-west-1/s3" : authorization), link signed: \(link?.query?.contains("X-Amz-Signature=") == true)",
                    expected: "Authorization scoped to eu-west-1/s3, link signed: true")
            },
            TourStep(
                title: "A redirect to another host carries no credential — a signature, a token, a key — unless the session trusts redirects",
                code: """
                    let session = HTTPSession(configuration: .init {
                        $0.networkMiddleware = [AWSSignatureV4(credentials: key, region: "eu-west-1", service: "s3")]
                        $0.requestProcessors = [AuthorizationHeaderProcessor(scheme: "", credentials: "k3y", field: "X-Api-Key")]
                    })
                    // 127.0.0.1 answers 307, Location: http://localhost:PORT/inspect — another origin
                    let away = try await HTTPCycle.get(url("/redirect-to"), parameters: ["url": elsewhere, "status": "307"], session: session)
                    try session.update { $0.sendsCredentialsAcrossRedirects = true }   // curl's --location-trusted
                    """
            ) {
                let key = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
                let session = HTTPSession(configuration: .init {
                    $0.networkMiddleware = [AWSSignatureV4(credentials: key, region: "eu-west-1", service: "s3")]
                    $0.requestProcessors = [AuthorizationHeaderProcessor(scheme: "", credentials: "k3y", field: "X-Api-Key")]
                })
                let elsewhere = url("/inspect").replacingOccurrences(of: "127.0.0.1", with: "localhost")
                let carried = { () async throws -> String in
                    let seen = try await HTTPCycle.get(url("/redirect-to"), parameters: ["url": .init(elsewhere), "status": "307"], session: session)
                    let names = (seen.json?["headers"].array ?? []).compactMap { $0[0].string }
                    let credentials = names.filter { ["Authorization", "X-Api-Key", "X-Amz-Date"].contains($0) }
                    return credentials.isEmpty ? "none" : credentials.joined(separator: ", ")
                }
                let away = try await carried()
                try session.update { $0.sendsCredentialsAcrossRedirects = true }
                let trusted = try await carried()
                try await session.shutdown()
                return Outcome("to localhost: \(away); trusted: \(trusted)", expected: "to localhost: none; trusted: X-Api-Key, X-Amz-Date, Authorization")
            },
            TourStep(
                title: "An S3 upload of any size goes in signed chunks, read once; Version 4a signs for a set of regions",
                code: """
                    let s3 = AWSSignatureV4(credentials: key, region: "eu-west-1", service: "s3", payloadSigning: .signedChunks())
                    var upload = HTTPRequest(url: URL(string: url("/inspect/bucket/video.mp4"))!, method: .put)
                    upload.body = .file(video)            // each 64 KiB chunk signed, chained from the request's signature
                    let global = AWSSignatureV4(credentials: key, regionSet: ["*"], service: "s3")   // ECDSA P-256
                    """
            ) {
                let key = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
                let s3 = AWSSignatureV4(credentials: key, region: "eu-west-1", service: "s3", payloadSigning: .signedChunks())
                let video = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-tour-\(UUID().uuidString).mp4")
                defer { try? FileManager.default.removeItem(at: video) }
                try Data(repeating: 1, count: 200_000).write(to: video)
                guard let target = URL(string: url("/inspect/bucket/video.mp4")) else { return Outcome("bad URL", expected: "") }
                var upload = HTTPRequest(url: target, method: .put)
                upload.body = .file(video)
                let session = HTTPSession(configuration: .init { $0.networkMiddleware = [s3] })
                let seen = try await session.send(upload)
                try await session.shutdown()
                let fields = seen.json?["headers"].array ?? []
                let value = { (name: String) in fields.first { $0[0].string == name }?[1].string ?? "none" }
                let global = AWSSignatureV4(credentials: key, regionSet: ["*"], service: "s3").signed(HTTPRequest(url: target), at: Date())
                let algorithm = global.headers["Authorization"]?.split(separator: " ").first.map(String.init) ?? "none"
                return Outcome(
                    "\(value("X-Amz-Content-SHA256")), \(value("X-Amz-Decoded-Content-Length")) bytes in \(seen.json?["bodyLength"].int ?? 0); 4a: \(algorithm)",
                    expected: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD, 200000 bytes in 200444; 4a: AWS4-ECDSA-P256-SHA256")
            },
            TourStep(
                title: "One BasicAuthentication answers whichever challenge the server sends: Digest, NTLM or Basic, the strongest offered",
                code: """
                    let session = HTTPSession()
                    try session.update { $0.authentications = [BasicAuthentication(username: "test", password: "12345")] }
                    let basic = try await HTTPCycle.get(url("/hello_with_basic_auth"), session: session)
                    let digest = try await HTTPCycle.get(url("/digest-auth/auth/test/12345/MD5"), session: session)
                    // NTLMv2: negotiate, then authenticate, with the request on a connection of their own
                    let ntlm = try await HTTPCycle.get(url("/ntlm-auth/test/12345"), session: session)
                    // BasicAuthentication(…, schemes: [.basic]) for Basic alone
                    """
            ) {
                let session = HTTPSession()
                try session.update { $0.authentications = [BasicAuthentication(username: "test", password: "12345")] }
                let basic = try await HTTPCycle.get(url("/hello_with_basic_auth"), session: session)
                let digest = try await HTTPCycle.get(url("/digest-auth/auth/test/12345/MD5"), session: session)
                let ntlm = try await HTTPCycle.get(url("/ntlm-auth/test/12345"), session: session)
                try await session.shutdown()
                let status = { (response: HTTPResponse) in response.statusCode }
                return Outcome(
                    "\(status(basic)) \"\(basic.text ?? "")\", digest \(status(digest)), ntlm \(status(ntlm))",
                    expected: "200 \"Hello World\", digest 200, ntlm 200")
            },
            TourStep(
                title: "A session with a base URL keeps its credentials to that origin",
                code: """
                    var configuration = HTTPSession.Configuration()
                    configuration.baseURL = URL(string: url("/"))
                    configuration.requestProcessors = [BearerTokenProcessor(token: "t0ken")]
                    let home = try await HTTPCycle.get("/inspect", session: session)            // Authorization: Bearer t0ken
                    let away = try await HTTPCycle.get("http://localhost:\\(port)/inspect", session: session)   // none
                    """
            ) {
                var configuration = HTTPSession.Configuration()
                configuration.baseURL = URL(string: url("/"))
                configuration.requestProcessors = [BearerTokenProcessor(token: "t0ken")]
                let session = HTTPSession(configuration: configuration)
                let home = try await HTTPCycle.get("/inspect", session: session)
                let away = try await HTTPCycle.get(url("/inspect").replacingOccurrences(of: "127.0.0.1", with: "localhost"), session: session)
                try await session.shutdown()
                func sent(_ response: HTTPResponse) -> String {
                    response.json?["headers"].array?.first { $0[0].string?.lowercased() == "authorization" }?[1].string ?? "none"
                }
                return Outcome("home: \(sent(home)); another origin: \(sent(away))", expected: "home: Bearer t0ken; another origin: none")
            },
            TourStep(
                title: "Digest authentication (RFC 7616) answers the server's challenge, then goes preemptively",
                code: """
                    let session = HTTPSession()
                    try session.update { $0.authentications = [DigestAuthentication(username: "Mufasa", password: "Circle of Life")] }
                    let response = try await HTTPCycle.get(url("/digest-auth/auth/Mufasa/Circle%20of%20Life/SHA-256"), session: session)
                    """
            ) {
                let session = HTTPSession()
                try session.update { $0.authentications = [DigestAuthentication(username: "Mufasa", password: "Circle of Life")] }
                let response = try await HTTPCycle.get(url("/digest-auth/auth/Mufasa/Circle%20of%20Life/SHA-256"), session: session)
                try await session.shutdown()
                return Outcome("status \(response.statusCode )", expected: "status 200")
            },
            TourStep(
                title: "A token that refreshes: many requests refused at once cause one refresh",
                code: """
                    let tokens = TokenAuthenticator(credential: .init(token: "expired")) {
                        let issued = try await HTTPCycle.get(url("/token/issue")).json?["token"].string
                        return .init(token: issued ?? "")
                    }
                    try session.update { $0.authentications = [tokens] }
                    // 10 requests at once to url("/token/protected"), each refused once, then replayed:
                    """
            ) {
                let refreshes = Atomic(0)
                let tokens = TokenAuthenticator(credential: .init(token: "expired")) {
                    refreshes.add(1, ordering: .relaxed)
                    let issued = try await HTTPCycle.get(url("/token/issue")).json?["token"].string
                    return .init(token: issued ?? "")
                }
                let session = HTTPSession()
                try session.update { $0.authentications = [tokens] }
                let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<10 {
                        group.addTask { try await HTTPCycle.get(url("/token/protected"), session: session).statusCode == 200 }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                try await session.shutdown()
                return Outcome(
                    "\(answered) answered, \(refreshes.load(ordering: .relaxed)) refresh",
                    expected: "10 answered, 1 refresh")
            },
        ]
    }
}
