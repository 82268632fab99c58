import Crypto
import Foundation
import JewzHTTPCore

/// The parts of AWS Signature Version 4 that do not depend on where a request came from: the
/// canonical request, the string to sign and the signature, from a request's method, target
/// and header fields as they go on the wire. Checked against AWS's published signing suite.
package struct SigV4Canonicalization: Sendable {
    /// Signature Version 4 (HMAC, one region) or 4a (ECDSA P-256, a set of regions).
    package enum Variant: Sendable {
        case v4, v4a
    }

    package let variant: Variant
    /// The region (`v4`), or the region set (`v4a`, sent as `X-Amz-Region-Set`).
    package let region: String
    package let service: String
    /// Whether the path's dot segments and empty segments are removed (every service but S3).
    package let normalizesPath: Bool
    /// Whether the path as sent is percent-encoded again (every service but S3).
    package let encodesPathTwice: Bool

    package init(region: String, service: String, normalizesPath: Bool, encodesPathTwice: Bool, variant: Variant = .v4) {
        self.variant = variant
        self.region = region
        self.service = service
        self.normalizesPath = normalizesPath
        self.encodesPathTwice = encodesPathTwice
    }

    package static let algorithm = "AWS4-HMAC-SHA256"
    package static let ecdsaAlgorithm = "AWS4-ECDSA-P256-SHA256"

    /// The algorithm's name in the `Authorization` field and the string to sign.
    package var signingAlgorithm: String { variant == .v4 ? Self.algorithm : Self.ecdsaAlgorithm }
    /// The hash of an empty payload.
    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// `20150830T123600Z` for a request signed at `date`.
    package static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(parts.year ?? 1970)\(two(parts.month))\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
    }

    /// `20150830/us-east-1/service/aws4_request`; `20150830/service/aws4_request` for `v4a`,
    /// whose regions are in `X-Amz-Region-Set` instead.
    package func scope(timestamp: String) -> String {
        variant == .v4 ? "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request" : "\(timestamp.prefix(8))/\(service)/aws4_request"
    }

    /// The canonical request: method, path, query, the signed fields, their names, the payload's hash.
    ///
    /// - Parameters:
    ///   - path: the path as it goes on the wire (percent-encoded, or raw in AWS's test cases).
    ///   - query: the query as it goes on the wire, without `?`.
    ///   - fields: the fields to sign, as name and value, in their order on the wire.
    package func canonicalRequest(
        method: String, path: String, query: String, fields: [(name: String, value: String)], payloadHash: String
    ) -> String {
        let (canonicalFields, signedNames) = Self.canonicalFields(fields)
        return [method, canonicalPath(path), Self.canonicalQuery(query), canonicalFields, "", signedNames, payloadHash]
            .joined(separator: "\n")
    }

    /// The string to sign for `canonicalRequest`.
    package func stringToSign(canonicalRequest: String, timestamp: String) -> String {
        [signingAlgorithm, timestamp, scope(timestamp: timestamp), Self.hexSHA256(Data(canonicalRequest.utf8))].joined(separator: "\n")
    }

    /// The signature of `stringToSign` with the key derived from `secret` for the scope's day.
    package func signature(of stringToSign: String, secret: String, timestamp: String) -> String {
        Self.signature(of: stringToSign, with: signingKey(secret: secret, timestamp: timestamp))
    }

    /// The key derived from `secret` for the scope's day, region and service.
    package func signingKey(secret: String, timestamp: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data("AWS4\(secret)".utf8))
        for part in [String(timestamp.prefix(8)), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    /// The signature of `stringToSign` with a key ``signingKey(secret:timestamp:)`` derived.
    package static func signature(of stringToSign: String, with key: SymmetricKey) -> String {
        hex(Data(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key)))
    }

    /// The names of `fields`, lowercased, sorted and joined with `;`.
    package static func signedNames(_ fields: [(name: String, value: String)]) -> String {
        canonicalFields(fields).names
    }

    private func canonicalPath(_ path: String) -> String {
        var path = path.isEmpty ? "/" : path
        if normalizesPath { path = Self.removingDotAndEmptySegments(path) }
        if encodesPathTwice { return PercentEncoding.encode(path, allowing: Self.pathBytes) }
        // Once: the path's own escapes are undone first, so that each byte is escaped one way.
        return PercentEncoding.encode(PercentEncoding.decode(path) ?? path, allowing: Self.pathBytes)
    }

    private static let pathBytes = PercentEncoding.AllowedBytes(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")

    /// RFC 3986's dot segments removed, and the empty segments `//` makes; a final `/` kept.
    private static func removingDotAndEmptySegments(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = segments.popLast()
            default: segments.append(segment)
            }
        }
        let joined = "/" + segments.joined(separator: "/")
        let endsInDirectory = path.hasSuffix("/") || path.hasSuffix("/.") || path.hasSuffix("/..")
        return endsInDirectory && joined != "/" ? joined + "/" : joined
    }

    /// Each name and value decoded, encoded again as AWS encodes, sorted by name then value.
    private static func canonicalQuery(_ query: String) -> String {
        guard !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { item -> (String, String) in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let encode = { (text: Substring) in PercentEncoding.encode(PercentEncoding.decode(text) ?? String(text)) }
            return (encode(parts[0]), parts.count > 1 ? encode(parts[1]) : "")
        }
        return pairs.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// `name:value` lines, names lowercased and sorted, values trimmed with runs of white space
    /// made one space, a name's repeated values joined with `,`; and the names joined with `;`.
    private static func canonicalFields(_ fields: [(name: String, value: String)]) -> (lines: String, names: String) {
        var values: [String: [String]] = [:]
        for field in fields {
            let words = field.value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" })
            values[field.name.lowercased(), default: []].append(words.joined(separator: " "))
        }
        let names = values.keys.sorted()
        let lines = names.map { "\($0):\(values[$0, default: []].joined(separator: ","))" }.joined(separator: "\n")
        return (lines, names.joined(separator: ";"))
    }

    /// The SHA-256 of `data` in lowercase hex: a payload's hash.
    package static func hexSHA256(_ data: some DataProtocol) -> String {
        hex(Data(SHA256.hash(data: data)))
    }

    package static func hex(_ data: Data) -> String {
        var bytes: [UInt8] = []
        data.withUnsafeBytes { appendHexDigits(of: $0, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
