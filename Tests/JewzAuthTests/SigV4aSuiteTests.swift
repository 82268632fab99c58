import Crypto
import Foundation
import JewzAuth
import JewzHTTPCore
import Testing

/// AWS's Signature Version 4a suite: the key derived from each case's access key is the
/// suite's public key; the canonical request and string to sign are the suite's, both forms;
/// the signature we make verifies with the suite's key, and the suite's with ours (ECDSA
/// signatures differ run to run, so they are checked, not compared).
@Suite struct SigV4aSuiteTests {
    static let suite = SigningSuite("v4a")
    static let cases = suite.cases

    struct PublicKey: Decodable {
        let X: String
        let Y: String
    }

    @Test func theSuiteIsPresentWhole() {
        #expect(Self.cases.count == 38)
    }

    /// The suite's public key for a case.
    static func publicKey(_ name: String) throws -> P256.Signing.PublicKey {
        let key = try JSONDecoder().decode(PublicKey.self, from: Data(try suite.read(name, "public-key.json").utf8))
        return try P256.Signing.PublicKey(rawRepresentation: try #require(Data(hex: key.X + key.Y)))
    }

    @Test(arguments: cases) func theDerivedKeyIsTheSuites(_ name: String) throws {
        let (context, _, _, _) = try Self.suite.load(name, variant: .v4a)
        let credentials = AWSCredentials(accessKeyID: context.credentials.access_key_id, secretAccessKey: context.credentials.secret_access_key)
        let derived = try #require(SigV4aKey.derive(from: credentials))
        #expect(derived.publicKey.rawRepresentation == (try Self.publicKey(name)).rawRepresentation)
    }

    @Test(arguments: cases) func headerForm(_ name: String) throws {
        let (_, _, canonical, stringToSign) = try Self.suite.headerForm(name, variant: .v4a)
        #expect(canonical == (try Self.suite.read(name, "header-canonical-request.txt")))
        #expect(stringToSign == (try Self.suite.read(name, "header-string-to-sign.txt")))
        try expectSignaturesVerify(name, stringToSign: stringToSign, expected: "header-signature.txt")
    }

    @Test(arguments: cases) func queryForm(_ name: String) throws {
        let (_, _, canonical, stringToSign) = try Self.suite.queryForm(name, variant: .v4a)
        #expect(canonical == (try Self.suite.read(name, "query-canonical-request.txt")))
        #expect(stringToSign == (try Self.suite.read(name, "query-string-to-sign.txt")))
        try expectSignaturesVerify(name, stringToSign: stringToSign, expected: "query-signature.txt")
    }

    @Test func aSignedRequestCarriesTheRegionSetAndAVerifiableSignature() throws {
        let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
        let signer = AWSSignatureV4(credentials: credentials, regionSet: ["us-east-1", "us-west-2"], service: "s3")
        let signed = signer.signed(HTTPRequest(url: try #require(URL(string: "https://mrap.accesspoint.s3-global.amazonaws.com/key"))), at: Date())
        #expect(signed.headers["X-Amz-Region-Set"] == "us-east-1,us-west-2")
        let authorization = try #require(signed.headers["Authorization"])
        #expect(authorization.hasPrefix("AWS4-ECDSA-P256-SHA256 Credential=AKIDEXAMPLE/"))
        #expect(authorization.contains("/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-region-set, Signature=30"))
        let link = signer.presignedURL(for: HTTPRequest(url: try #require(URL(string: "https://mrap.accesspoint.s3-global.amazonaws.com/key"))))
        #expect(link.query?.contains("X-Amz-Algorithm=AWS4-ECDSA-P256-SHA256") == true)
        #expect(link.query?.contains("X-Amz-Region-Set=us-east-1%2Cus-west-2") == true)
    }

    /// The suite's signature verifies with the suite's key, and ours (by the derived key) too.
    private func expectSignaturesVerify(_ name: String, stringToSign: String, expected file: String) throws {
        let key = try Self.publicKey(name)
        let theirs = try P256.Signing.ECDSASignature(derRepresentation: try #require(Data(hex: try Self.suite.read(name, file))))
        #expect(key.isValidSignature(theirs, for: Data(stringToSign.utf8)))
        let (context, _, _, _) = try Self.suite.load(name, variant: .v4a)
        let derived = try #require(SigV4aKey.derive(from: AWSCredentials(
            accessKeyID: context.credentials.access_key_id, secretAccessKey: context.credentials.secret_access_key)))
        #expect(key.isValidSignature(try derived.signature(for: Data(stringToSign.utf8)), for: Data(stringToSign.utf8)))
    }
}

extension Data {
    /// The bytes of a hex string; `nil` when it is not hex.
    init?(hex: String) {
        let text = hex.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
