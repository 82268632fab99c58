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
}
