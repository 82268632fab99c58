import Foundation
import JewzAuth
import JewzHTTPCore

/// A version of AWS's signing suite (`Resources/aws-signing-test-suite/SOURCE.md`): its cases,
/// and each case's context and request.
struct SigningSuite {
    let directory: URL
    let cases: [String]

    /// `v4` or `v4a`. A case counts when it has its expected results (two of `v4a`'s folders
    /// upstream hold only their request).
    init(_ version: String) {
        let directory = (Bundle.module.resourceURL ?? URL(fileURLWithPath: "."))
            .appendingPathComponent("aws-signing-test-suite").appendingPathComponent(version)
        self.directory = directory
        cases = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted().filter { name in
            FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).appendingPathComponent("header-canonical-request.txt").path)
        }
    }

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

    func read(_ name: String, _ file: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name).appendingPathComponent(file), encoding: .utf8)
    }

    /// A case's context, request, the signing it describes, and its time as SigV4 writes it.
    func load(_ name: String, variant: SigV4Canonicalization.Variant = .v4) throws -> (Context, RawRequest, SigV4Canonicalization, String) {
        let context = try JSONDecoder().decode(Context.self, from: Data(try read(name, "context.json").utf8))
        let signing = SigV4Canonicalization(
            region: context.region, service: context.service, normalizesPath: context.normalize, encodesPathTwice: true, variant: variant)
        let timestamp = context.timestamp.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
        return (context, RawRequest(try read(name, "request.txt")), signing, timestamp)
    }

    /// A case signed in the header form: its context, canonical request, string to sign and
    /// timestamp (4a adds `X-Amz-Region-Set` to the fields).
    func headerForm(_ name: String, variant: SigV4Canonicalization.Variant = .v4) throws -> (Context, SigV4Canonicalization, String, String) {
        let (context, request, signing, timestamp) = try load(name, variant: variant)
        let payloadHash = SigV4Canonicalization.hexSHA256(request.body)
        var fields = request.fields + [("X-Amz-Date", timestamp)]
        if variant == .v4a { fields.append(("X-Amz-Region-Set", context.region)) }
        if let token = context.credentials.token, context.omit_session_token != true { fields.append(("X-Amz-Security-Token", token)) }
        if context.sign_body { fields.append(("x-amz-content-sha256", payloadHash)) }
        let canonical = signing.canonicalRequest(
            method: request.method, path: request.path, query: request.query, fields: fields, payloadHash: payloadHash)
        return (context, signing, canonical, signing.stringToSign(canonicalRequest: canonical, timestamp: timestamp))
    }

    /// A case signed in the query (presigned URL) form, as ``headerForm(_:variant:)`` gives it.
    func queryForm(_ name: String, variant: SigV4Canonicalization.Variant = .v4) throws -> (Context, SigV4Canonicalization, String, String) {
        let (context, request, signing, timestamp) = try load(name, variant: variant)
        var parameters = [
            ("X-Amz-Algorithm", signing.signingAlgorithm),
            ("X-Amz-Credential", "\(context.credentials.access_key_id)/\(signing.scope(timestamp: timestamp))"),
            ("X-Amz-Date", timestamp), ("X-Amz-Expires", String(context.expiration_in_seconds ?? 3600)),
            ("X-Amz-SignedHeaders", SigV4Canonicalization.signedNames(request.fields)),
        ]
        if variant == .v4a { parameters.append(("X-Amz-Region-Set", context.region)) }
        if let token = context.credentials.token, context.omit_session_token != true { parameters.append(("X-Amz-Security-Token", token)) }
        let query = ([request.query].filter { !$0.isEmpty } + parameters.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }).joined(separator: "&")
        let canonical = signing.canonicalRequest(
            method: request.method, path: request.path, query: query, fields: request.fields,
            payloadHash: SigV4Canonicalization.hexSHA256(request.body))
        return (context, signing, canonical, signing.stringToSign(canonicalRequest: canonical, timestamp: timestamp))
    }
}
