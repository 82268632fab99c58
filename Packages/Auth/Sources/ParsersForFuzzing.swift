import Foundation

/// The readers of what a server sends that have no public way in, for the harnesses in
/// `Tools/Fuzz` (`@_spi(Fuzzing) import JewzAuth`). Not API: names and shapes may change.
@_spi(Fuzzing) public enum AuthParsers {
    /// A token endpoint's answer read as a token; `nil` when it is refused as unreadable.
    public static func tokenResponse(_ data: Data) -> OAuth2Token? {
        try? OAuth2Token.decode(data, receivedAt: Date(timeIntervalSince1970: 0))
    }

    /// A device authorization endpoint's answer; `nil` when it is refused as unreadable.
    public static func deviceAuthorizationResponse(_ data: Data) -> OAuth2DeviceAuthorization? {
        try? OAuth2DeviceAuthorization.decode(data, receivedAt: Date(timeIntervalSince1970: 0))
    }

    /// Whether `bytes` read as an NTLM challenge message.
    public static func ntlmChallenge(_ bytes: [UInt8]) -> Bool {
        (try? NTLMChallengeMessage(bytes)) != nil
    }

    /// NTLM target information read, written and read again: the attributes of both reads, or
    /// `nil` when the first refuses the bytes.
    public static func ntlmTargetInformation(_ bytes: [UInt8]) -> (first: Int, again: Bool)? {
        guard let attributes = try? NTLMAttribute.parse(bytes[...]) else { return nil }
        let again = try? NTLMAttribute.parse(NTLMAttribute.serialize(attributes)[...])
        return (attributes.count, again == attributes)
    }

    /// The canonical request of Signature Version 4 for the parts given, with S3's rules or
    /// every other service's.
    public static func sigV4CanonicalRequest(
        method: String, path: String, query: String, fields: [(name: String, value: String)], s3: Bool
    ) -> String {
        SigV4Canonicalization(region: "us-east-1", service: s3 ? "s3" : "service", normalizesPath: !s3, encodesPathTwice: !s3)
            .canonicalRequest(method: method, path: path, query: query, fields: fields, payloadHash: SigV4Canonicalization.emptyPayloadHash)
    }
}
