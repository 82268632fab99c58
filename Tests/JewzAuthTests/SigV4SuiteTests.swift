import Foundation
import JewzAuth
import JewzHTTPCore
import Testing

/// AWS's Signature Version 4 signing suite (`Resources/aws-signing-test-suite/SOURCE.md`): for
/// each case, the canonical request, the string to sign and the signature, in the header form
/// and the query (presigned URL) form, as aws-c-auth computes them.
@Suite struct SigV4SuiteTests {
    static let directory = (Bundle.module.resourceURL ?? URL(fileURLWithPath: "."))
        .appendingPathComponent("aws-signing-test-suite").appendingPathComponent("v4")

    static let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()

    /// A case's `context.json`.
    struct Context: Decodable {
        struct Credentials: Decodable {
            let access_key_id: String
            let secret_access_key: String
            let token: String?
        }
        let credentials: Credentials
        let expiration_in_seconds: Int?
        let normalize: Bool
        let region: String
        let service: String
        let sign_body: Bool
        let timestamp: String
        let omit_session_token: Bool?
    }

    /// A case's `request.txt`: the request line's parts, the fields (folded lines joined), the body.
    struct RawRequest {
        var method = ""
        var path = ""
        var query = ""
        var fields: [(name: String, value: String)] = []
        var body = Data()

        init(_ text: String) {
            let (head, body) = text.range(of: "\n\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) } ?? (text, "")
            self.body = Data(body.utf8)
            var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let requestLine = lines.removeFirst().split(separator: " ")
            method = String(requestLine[0])
            let target = requestLine.dropFirst().dropLast().joined(separator: " ")
            if let mark = target.firstIndex(of: "?") {
                path = String(target[..<mark])
                query = String(target[target.index(after: mark)...])
            } else {
                path = target
            }
            for line in lines {
                if line.first == " " || line.first == "\t", !fields.isEmpty {
                    fields[fields.count - 1].value += " " + line
                } else if let colon = line.firstIndex(of: ":") {
                    fields.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
                }
            }
        }
    }

    static func read(_ name: String, _ file: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name).appendingPathComponent(file), encoding: .utf8)
    }

    /// A case's context, request, the signing it describes, and its time as SigV4 writes it.
    static func load(_ name: String) throws -> (Context, RawRequest, SigV4Canonicalization, String) {
        let context = try JSONDecoder().decode(Context.self, from: Data(try read(name, "context.json").utf8))
        let signing = SigV4Canonicalization(
            region: context.region, service: context.service, normalizesPath: context.normalize, encodesPathTwice: true)
        let timestamp = context.timestamp.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        return (context, RawRequest(try read(name, "request.txt")), signing, timestamp)
    }

    @Test func theSuiteIsPresentWhole() {
        #expect(Self.cases.count == 38)
    }

    @Test(arguments: cases) func headerForm(_ name: String) throws {
        let (context, request, signing, timestamp) = try Self.load(name)
        let payloadHash = SigV4Canonicalization.hexSHA256(request.body)
        var fields = request.fields + [("X-Amz-Date", timestamp)]
        if let token = context.credentials.token, context.omit_session_token != true { fields.append(("X-Amz-Security-Token", token)) }
        if context.sign_body { fields.append(("x-amz-content-sha256", payloadHash)) }

        let canonical = signing.canonicalRequest(
            method: request.method, path: request.path, query: request.query, fields: fields, payloadHash: payloadHash)
        #expect(canonical == (try Self.read(name, "header-canonical-request.txt")))
        let stringToSign = signing.stringToSign(canonicalRequest: canonical, timestamp: timestamp)
        #expect(stringToSign == (try Self.read(name, "header-string-to-sign.txt")))
        let signature = signing.signature(of: stringToSign, secret: context.credentials.secret_access_key, timestamp: timestamp)
        #expect(signature == (try Self.read(name, "header-signature.txt")))
    }

    @Test(arguments: cases) func queryForm(_ name: String) throws {
        let (context, request, signing, timestamp) = try Self.load(name)
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
        #expect(canonical == (try Self.read(name, "query-canonical-request.txt")))
        let stringToSign = signing.stringToSign(canonicalRequest: canonical, timestamp: timestamp)
        #expect(stringToSign == (try Self.read(name, "query-string-to-sign.txt")))
        let signature = signing.signature(of: stringToSign, secret: context.credentials.secret_access_key, timestamp: timestamp)
        #expect(signature == (try Self.read(name, "query-signature.txt")))
    }
}
