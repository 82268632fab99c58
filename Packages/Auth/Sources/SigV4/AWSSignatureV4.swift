import Crypto
import Foundation
import JewzHTTPCore

/// Signs requests with AWS Signature Version 4, for S3 and S3-compatible stores (MinIO, Ceph,
/// R2) and every AWS API: a network middleware, so that it signs what goes on the wire, after
/// every other field is set, again on each retry and on each redirect hop that stays on the
/// call's origin.
///
/// The signature covers the method, path, query, the body's hash and the request's fields
/// (but `User-Agent`, `Authorization` and the fields proxies and tracers add). A body in memory
/// is hashed; a file or a stream is sent as `UNSIGNED-PAYLOAD`, which S3 accepts (other
/// services want the body in memory), or, with ``PayloadSigning/signedChunks(size:)``, a file
/// goes in chunks that are each signed as they are read. For S3 the path is encoded once and not normalized, as S3
/// reads keys; for other services it is normalized and encoded twice.
///
/// ```swift
/// let credentials = AWSCredentials.environment() ?? AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret")
/// let s3 = AWSSignatureV4(credentials: credentials, region: "eu-west-1", service: "s3")
/// let session = HTTPSession(configuration: .init { $0.networkMiddleware = [s3] })
/// let link = s3.presignedURL(for: HTTPRequest(url: URL(string: "https://bucket.s3.eu-west-1.amazonaws.com/report.pdf")!))
/// ```
public struct AWSSignatureV4: HTTPMiddleware {
    /// How a request's body is covered by its signature.
    public struct PayloadSigning: Sendable, Hashable {
        let chunkSize: Int?

        /// A body in memory hashed, a file or a stream sent as `UNSIGNED-PAYLOAD`.
        public static let automatic = PayloadSigning(chunkSize: nil)

        /// A file body sent as S3's signed chunks (`STREAMING-AWS4-HMAC-SHA256-PAYLOAD`,
        /// `Content-Encoding: aws-chunked`): signed as it is read, never read twice or held,
        /// for uploads of any size. `size` is at least 8 KiB, as S3 asks; a body in memory is
        /// still hashed whole, a stream still `UNSIGNED-PAYLOAD`.
        public static func signedChunks(size: Int = 64 << 10) -> PayloadSigning { PayloadSigning(chunkSize: max(size, 8 << 10)) }
    }

    /// The access key requests are signed with.
    public let credentials: AWSCredentials
    /// The region requests are signed for (`us-east-1`); with Signature Version 4a, the
    /// region set, joined with commas (`us-east-1,us-west-2`, `*`).
    public let region: String
    /// The service requests are signed for (`s3`, `sts`, `execute-api`…).
    public let service: String
    /// How bodies are signed.
    public let payloadSigning: PayloadSigning
    private let clock: @Sendable () -> Date
    private let canonicalization: SigV4Canonicalization
    /// Signature Version 4a's key, derived from the credentials; `nil` for Version 4.
    private let ecdsaKey: P256.Signing.PrivateKey?

    /// Fields never signed: a proxy, a tracer or the transport may change them on the way.
    private static let unsignedFields: Set<String> = [
        "authorization", "user-agent", "connection", "expect", "keep-alive", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "x-amzn-trace-id", "traceparent", "tracestate",
    ]

    /// A signer for Signature Version 4 (`AWS4-HMAC-SHA256`) in `region`, for `service`.
    ///
    /// - Parameters:
    ///   - credentials: the access key, and the session token of temporary credentials.
    ///   - region: the region of the endpoint (`us-east-1`).
    ///   - service: the service's signing name (`s3`, `sts`, `execute-api`…).
    ///   - payloadSigning: how bodies are signed (``PayloadSigning/automatic`` unless given).
    ///   - clock: the time requests are signed at (a test's fixed date).
    public init(
        credentials: AWSCredentials, region: String, service: String, payloadSigning: PayloadSigning = .automatic,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.init(credentials: credentials, region: region, service: service, payloadSigning: payloadSigning, clock: clock, variant: .v4)
    }

    /// A signer for Signature Version 4a (`AWS4-ECDSA-P256-SHA256`): one signature valid in
    /// every region of `regionSet`, for S3 Multi-Region Access Points and global endpoints. The
    /// ECDSA P-256 key is derived from `credentials` as AWS derives it. Bodies are hashed or
    /// `UNSIGNED-PAYLOAD` as ``PayloadSigning/automatic`` does; there are no signed chunks.
    ///
    /// - Parameters:
    ///   - credentials: the access key the signing key is derived from.
    ///   - regionSet: the regions the signature is good for; `["*"]` for all.
    ///   - service: the service's signing name (`s3`…).
    ///   - clock: the time requests are signed at (a test's fixed date).
    public init(credentials: AWSCredentials, regionSet: [String], service: String, clock: @escaping @Sendable () -> Date = Date.init) {
        self.init(
            credentials: credentials, region: regionSet.joined(separator: ","), service: service, payloadSigning: .automatic, clock: clock,
            variant: .v4a)
    }

    private init(
        credentials: AWSCredentials, region: String, service: String, payloadSigning: PayloadSigning,
        clock: @escaping @Sendable () -> Date, variant: SigV4Canonicalization.Variant
    ) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.payloadSigning = payloadSigning
        self.clock = clock
        let isS3 = service == "s3"
        canonicalization = SigV4Canonicalization(
            region: region, service: service, normalizesPath: !isS3, encodesPathTwice: !isS3, variant: variant)
        ecdsaKey = variant == .v4a ? SigV4aKey.derive(from: credentials) : nil
    }

    /// `sigv4`, as `jewz -v` and the stage events call it.
    public var name: String { "sigv4" }

    /// Sends `request` signed now; a redirect hop to another origin than the call's goes
    /// unsigned (``/JewzHTTPCore/HTTPNext/mayCarryCredentials(to:)``), so that a server cannot
    /// have the key sign a request to wherever its `Location` names.
    public func intercept(_ request: HTTPRequest, next: HTTPNext) async throws -> HTTPResponse {
        guard next.mayCarryCredentials(to: request.url) else { return try await next(request) }
        return try await next(signed(request, at: clock()))
    }

    /// `request` with the fields that sign it: `X-Amz-Date`, `X-Amz-Content-SHA256`,
    /// `X-Amz-Security-Token` for temporary credentials, and `Authorization`; with signed chunks,
    /// also `Content-Encoding: aws-chunked`, `X-Amz-Decoded-Content-Length`, and the body as chunks.
    public func signed(_ request: HTTPRequest, at date: Date) -> HTTPRequest {
        var signed = request
        let timestamp = SigV4Canonicalization.timestamp(date)
        var payloadHash = Self.payloadHash(of: request)
        let chunked = chunkedFile(of: request)
        if let (_, length, size) = chunked {
            payloadHash = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"
            signed.headers["Content-Encoding"] = (["aws-chunked"] + signed.headers.values(for: "Content-Encoding")).joined(separator: ",")
            signed.headers["X-Amz-Decoded-Content-Length"] = String(length)
            if signed.headers["Content-Length"] != nil {
                signed.headers["Content-Length"] = String(AWSSignedChunks.encodedLength(of: length, size: size))
            }
        }
        signed.headers["Authorization"] = nil
        signed.headers["X-Amz-Date"] = timestamp
        signed.headers["X-Amz-Content-SHA256"] = payloadHash
        signed.headers["X-Amz-Security-Token"] = credentials.sessionToken
        if ecdsaKey != nil { signed.headers["X-Amz-Region-Set"] = region }
        let fields = signedFields(of: signed)
        let canonical = canonicalization.canonicalRequest(
            method: request.method.rawValue, path: Self.path(of: request.url), query: request.url.query(percentEncoded: true) ?? "",
            fields: fields, payloadHash: payloadHash)
        let stringToSign = canonicalization.stringToSign(canonicalRequest: canonical, timestamp: timestamp)
        let signature = signature(of: stringToSign, timestamp: timestamp)
        signed.headers["Authorization"] = "\(canonicalization.signingAlgorithm) Credential=\(credentials.accessKeyID)/\(canonicalization.scope(timestamp: timestamp)), "
            + "SignedHeaders=\(SigV4Canonicalization.signedNames(fields)), Signature=\(signature)"
        if let (file, length, size) = chunked {
            // Every chunk is signed with the day's key: derived once, not per chunk.
            let (key, scope) = (canonicalization.signingKey(secret: credentials.secretAccessKey, timestamp: timestamp), canonicalization.scope(timestamp: timestamp))
            let chunks = AWSSignedChunks(file: file, size: size, seedSignature: signature) { previous, chunk in
                let stringToSign = [
                    "AWS4-HMAC-SHA256-PAYLOAD", timestamp, scope, previous, SigV4Canonicalization.emptyPayloadHash,
                    SigV4Canonicalization.hexSHA256(chunk),
                ].joined(separator: "\n")
                return SigV4Canonicalization.signature(of: stringToSign, with: key)
            }
            signed.body = .stream(HTTPBodyStream(
                length: AWSSignedChunks.encodedLength(of: length, size: size), AsyncThrowingStream { try await chunks.next() }))
        }
        return signed
    }

    /// Version 4's HMAC of `stringToSign`, or Version 4a's ECDSA signature of it (DER, in hex).
    private func signature(of stringToSign: String, timestamp: String) -> String {
        guard let ecdsaKey else {
            return canonicalization.signature(of: stringToSign, secret: credentials.secretAccessKey, timestamp: timestamp)
        }
        return (try? ecdsaKey.signature(for: Data(stringToSign.utf8))).map { SigV4Canonicalization.hex($0.derRepresentation) } ?? ""
    }

    /// The file, its length and the chunk size when the body goes as signed chunks.
    private func chunkedFile(of request: HTTPRequest) -> (URL, Int, Int)? {
        guard let size = payloadSigning.chunkSize, ecdsaKey == nil, case .file(let url)? = request.body, let length = try? FileChunks(url: url).size() else {
            return nil
        }
        return (url, length, size)
    }

    /// A URL that performs `request` (a GET, a PUT of a known object) for anyone who has it,
    /// until `lifetime` has passed: the signature travels in the query (`X-Amz-Signature`) and
    /// only the `Host` field is signed. For S3 the body is `UNSIGNED-PAYLOAD`; every other
    /// service wants the body's hash, so the request's body (in memory, or none: a GET's empty
    /// body) is hashed, as AWS's own signers do (an STS `GetCallerIdentity` URL, an RDS token).
    ///
    /// - Parameters:
    ///   - request: the request the URL stands for; its method must be the one the URL is used with.
    ///   - lifetime: how long the URL works, at most seven days.
    ///   - date: when the URL starts to work.
    public func presignedURL(for request: HTTPRequest, lifetime: Duration = .seconds(3600), at date: Date = Date()) -> URL {
        let timestamp = SigV4Canonicalization.timestamp(date)
        let host = Self.host(of: request.url)
        var parameters = [
            ("X-Amz-Algorithm", canonicalization.signingAlgorithm),
            ("X-Amz-Credential", "\(credentials.accessKeyID)/\(canonicalization.scope(timestamp: timestamp))"),
            ("X-Amz-Date", timestamp), ("X-Amz-Expires", String(min(max(lifetime.components.seconds, 1), 604_800))),
            ("X-Amz-SignedHeaders", "host"),
        ]
        if let token = credentials.sessionToken { parameters.append(("X-Amz-Security-Token", token)) }
        if ecdsaKey != nil { parameters.append(("X-Amz-Region-Set", region)) }
        let added = parameters.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        let query = [request.url.query(percentEncoded: true), added].compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: "&")
        let canonical = canonicalization.canonicalRequest(
            method: request.method.rawValue, path: Self.path(of: request.url), query: query, fields: [("host", host)],
            payloadHash: service == "s3" ? "UNSIGNED-PAYLOAD" : Self.payloadHash(of: request))
        let stringToSign = canonicalization.stringToSign(canonicalRequest: canonical, timestamp: timestamp)
        let signature = signature(of: stringToSign, timestamp: timestamp)
        var components = URLComponents(url: request.url, resolvingAgainstBaseURL: true)
        components?.percentEncodedQuery = query + "&X-Amz-Signature=" + signature
        return components?.url ?? request.url
    }

    /// The request's fields to sign, `Host` first as the transport will send it.
    private func signedFields(of request: HTTPRequest) -> [(name: String, value: String)] {
        var fields = [(name: "host", value: Self.host(of: request.url))]
        for field in request.headers where !Self.unsignedFields.contains(field.name.lowercased()) && field.name.lowercased() != "host" {
            fields.append((field.name, field.value))
        }
        return fields
    }

    /// The body's SHA-256 when it is in memory; `UNSIGNED-PAYLOAD` for a file or a stream.
    private static func payloadHash(of request: HTTPRequest) -> String {
        switch request.body {
        case nil: SigV4Canonicalization.emptyPayloadHash
        case .data(let data)?: SigV4Canonicalization.hexSHA256(data)
        default: "UNSIGNED-PAYLOAD"
        }
    }

    /// `host`, with the port when it is not the scheme's default, as the `Host` field says it.
    private static func host(of url: URL) -> String {
        let host = url.host(percentEncoded: true) ?? ""
        guard let port = url.port, port != (url.scheme == "https" ? 443 : 80) else { return host }
        return "\(host):\(port)"
    }

    /// The path as the request line sends it.
    private static func path(of url: URL) -> String {
        let path = url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }
}
