import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// S3's signed chunks (`STREAMING-AWS4-HMAC-SHA256-PAYLOAD`) against AWS's own worked example:
/// the seed signature, each chunk's signature and the encoded body, byte for byte.
@Suite struct SigV4SignedChunksTests {
    static let credentials = AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    static let exampleDate = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z
    static let chunkSignatures = [
        "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648",
        "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497",
        "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9",
    ]

    @Test func awsChunkedUploadExampleIsSignedByteForByte() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-sigv4")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("chunkObject.txt")
        try Data(repeating: UInt8(ascii: "a"), count: 66_560).write(to: file)
        var request = HTTPRequest(url: try #require(URL(string: "https://s3.amazonaws.com/examplebucket/chunkObject.txt")), method: .put)
        request.headers["x-amz-storage-class"] = "REDUCED_REDUNDANCY"
        request.headers["Content-Length"] = "66560"
        request.body = .file(file)
        let signer = AWSSignatureV4(credentials: Self.credentials, region: "us-east-1", service: "s3", payloadSigning: .signedChunks())
        let signed = signer.signed(request, at: Self.exampleDate)
        #expect(signed.headers["Content-Length"] == "66824")
        #expect(signed.headers["X-Amz-Decoded-Content-Length"] == "66560")
        #expect(signed.headers["Content-Encoding"] == "aws-chunked")
        #expect(signed.headers["X-Amz-Content-SHA256"] == "STREAMING-AWS4-HMAC-SHA256-PAYLOAD")
        #expect(signed.headers["Authorization"]
            == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-class, "
            + "Signature=4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9")

        var expected = Data()
        for (length, signature) in zip([65_536, 1024, 0], Self.chunkSignatures) {
            expected.append(Data("\(String(length, radix: 16));chunk-signature=\(signature)\r\n".utf8))
            expected.append(Data(repeating: UInt8(ascii: "a"), count: length))
            expected.append(Data("\r\n".utf8))
        }
        guard case .stream(let stream)? = signed.body else { Issue.record("the body is not sent as chunks"); return }
        var sent = Data()
        for try await chunk in try stream.take() { sent.append(chunk) }
        #expect(sent.count == 66_824)
        #expect(sent == expected)
    }

    @Test func aSignedChunkUploadGoesOutWithItsEncodedLengthEachTime() async throws {
        let directory = try makeScratchDirectory(prefix: "jewz-sigv4")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("upload.bin")
        try Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0) }).write(to: file)
        let signer = AWSSignatureV4(credentials: Self.credentials, region: "eu-west-1", service: "s3", payloadSigning: .signedChunks())
        try await withSandbox(configuration: .init { $0.networkMiddleware = [signer] }) { sandbox, session in
            var request = HTTPRequest(url: try #require(URL(string: sandbox.url("/inspect/bucket/upload.bin"))), method: .put)
            request.body = .file(file)
            for _ in 0..<2 {
                let wire = try Inspection(try await session.send(request))
                #expect(wire.values("Content-Length") == ["200444"])
                #expect(wire.values("X-Amz-Decoded-Content-Length") == ["200000"])
                #expect(wire.bodyLength == 200_444)
            }
        }
    }
}
