import Foundation
import JewzAuth
import JewzHTTPCore
import Testing

/// AWS's Signature Version 4 signing suite (`Resources/aws-signing-test-suite/SOURCE.md`): for
/// each case, the canonical request, the string to sign and the signature, in the header form
/// and the query (presigned URL) form, as aws-c-auth computes them.
@Suite struct SigV4SuiteTests {
    static let suite = SigningSuite("v4")
    static let cases = suite.cases

    @Test func theSuiteIsPresentWhole() {
        #expect(Self.cases.count == 38)
    }

    @Test(arguments: cases) func headerForm(_ name: String) throws {
        let (context, request, signing, timestamp) = try Self.suite.load(name)
        let payloadHash = SigV4Canonicalization.hexSHA256(request.body)
        var fields = request.fields + [("X-Amz-Date", timestamp)]
        if let token = context.credentials.token, context.omit_session_token != true { fields.append(("X-Amz-Security-Token", token)) }
        if context.sign_body { fields.append(("x-amz-content-sha256", payloadHash)) }

        let canonical = signing.canonicalRequest(
            method: request.method, path: request.path, query: request.query, fields: fields, payloadHash: payloadHash)
        #expect(canonical == (try Self.suite.read(name, "header-canonical-request.txt")))
        let stringToSign = signing.stringToSign(canonicalRequest: canonical, timestamp: timestamp)
        #expect(stringToSign == (try Self.suite.read(name, "header-string-to-sign.txt")))
        let signature = signing.signature(of: stringToSign, secret: context.credentials.secret_access_key, timestamp: timestamp)
        #expect(signature == (try Self.suite.read(name, "header-signature.txt")))
    }

    @Test(arguments: cases) func queryForm(_ name: String) throws {
        let (context, request, signing, timestamp) = try Self.suite.load(name)
        var parameters = [
            ("X-Amz-Algorithm", SigV4Canonicalization.algorithm),
            ("X-Amz-Credential", "\(context.credentials.access_key_id)/\(signing.scope(timestamp: timestamp))"),
            ("X-Amz-Date", timestamp), ("X-Amz-Expires", String(context.expiration_in_seconds ?? 3600)),
            ("X-Amz-SignedHeaders", SigV4Canonicalization.signedNames(request.fields)),
        ]
        if let token = context.credentials.token, context.omit_session_token != true { parameters.append(("X-Amz-Security-Token", token)) }
        let query = ([request.query].filter { !$0.isEmpty } + parameters.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }).joined(separator: "&")

        let canonical = signing.canonicalRequest(
            method: request.method, path: request.path, query: query, fields: request.fields,
            payloadHash: SigV4Canonicalization.hexSHA256(request.body))
        #expect(canonical == (try Self.suite.read(name, "query-canonical-request.txt")))
        let stringToSign = signing.stringToSign(canonicalRequest: canonical, timestamp: timestamp)
        #expect(stringToSign == (try Self.suite.read(name, "query-string-to-sign.txt")))
        let signature = signing.signature(of: stringToSign, secret: context.credentials.secret_access_key, timestamp: timestamp)
        #expect(signature == (try Self.suite.read(name, "query-signature.txt")))
    }
}
