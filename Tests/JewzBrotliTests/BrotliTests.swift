import Foundation
import JewzBrotli
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// `br` responses from the Sandbox (encoded by libbrotli's encoder), decoded as they arrive.
@Suite struct BrotliTests {
    private func codings(_ decoder: HTTPBrotliDecoder = HTTPBrotliDecoder()) -> ContentCodingRegistry {
        let registry = ContentCodingRegistry()
        registry.register(decoder, for: HTTPBrotliDecoder.codings)
        return registry
    }

    @Test func aBrotliBodyIsDecodedAndBrIsAdvertised() async throws {
        try await withSandbox(contentCodings: codings()) { sandbox, session in
            let cycle = try await HTTPCycle.get(sandbox.url("/encoded?coding=br&content=Jewzruxin%20&repeat=5000"), session: session)
            #expect(cycle.response?.text == String(repeating: "Jewzruxin ", count: 5000))
            let inspected = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            #expect(inspected.response?.text?.contains(#"["Accept-Encoding","br"]"#) == true, "\(inspected.response?.text ?? "")")
        }
    }

    @Test(arguments: [("truncate=1", ContentDecodingError.Code.truncated), ("garbage=1", .trailingData)])
    func damagedBodiesAreTypedErrors(_ damage: String, _ code: ContentDecodingError.Code) async throws {
        try await withSandbox(contentCodings: codings()) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/encoded?coding=br&repeat=300&\(damage)"), session: session) }
            #expect(error?.code == .contentDecoding, "\(String(describing: error))")
            #expect((error?.underlying as? ContentDecodingError)?.code == code, "\(String(describing: error?.underlying))")
        }
    }

    @Test func aBombStopsAtTheRatioAndASizeLimitHolds() async throws {
        let ratio = HTTPBrotliDecoder(limits: DecompressionLimits(maximumExpansionRatio: 50, ratioCheckThreshold: 64 << 10))
        try await withSandbox(contentCodings: codings(ratio)) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/encoded?coding=br&content=a&repeat=1000000"), session: session) }
            #expect((error?.underlying as? ContentDecodingError)?.code == .expansionRatioExceeded)
        }
        let size = HTTPBrotliDecoder(limits: DecompressionLimits(maximumDecodedSize: 1000))
        try await withSandbox(contentCodings: codings(size)) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/encoded?coding=br&repeat=1000"), session: session) }
            let underlying = error?.underlying as? ContentDecodingError
            #expect(underlying?.code == .sizeLimitExceeded)
            #expect(underlying?.description.contains("1000 bytes") == true)
        }
    }

    /// Any split of the input gives the same output: the decoder keeps its state across pieces.
    @Test func anySplitDecodesAlike() async throws {
        var generator = SeededGenerator()
        try await withSandbox { sandbox, session in
            let encoded = try #require(try await HTTPCycle.get(sandbox.url("/encoded?coding=br&content=split%20me%20&repeat=20000"), session: session).response?.data)
            let expected = Data(String(repeating: "split me ", count: 20000).utf8)
            for _ in 0..<20 {
                let decoder = BrotliDecompressor()
                var output = Data()
                var start = 0
                while start < encoded.count {
                    let end = min(encoded.count, start + Int.random(in: 1...4096, using: &generator))
                    try encoded[start..<end].withUnsafeBytes { try decoder.decode($0, into: &output) }
                    start = end
                }
                try decoder.finish(into: &output)
                #expect(output == expected, "\(generator)")
            }
        }
    }
}
