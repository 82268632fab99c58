import Foundation
import JewzZstd
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// `zstd` responses from the Sandbox (encoded by libzstd), decoded as they arrive.
@Suite struct ZstdTests {
    private func codings(_ decoder: HTTPZstdDecoder = HTTPZstdDecoder()) -> ContentCodingRegistry {
        let registry = ContentCodingRegistry()
        registry.register(decoder, for: HTTPZstdDecoder.codings)
        return registry
    }

    @Test func aZstdBodyIsDecodedAndZstdIsAdvertised() async throws {
        try await withSandbox(contentCodings: codings()) { sandbox, session in
            let cycle = try await HTTPCycle.get(sandbox.url("/encoded?coding=zstd&content=Jewzruxin%20&repeat=5000"), session: session)
            #expect(cycle.response?.text == String(repeating: "Jewzruxin ", count: 5000))
            let inspected = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            #expect(inspected.response?.text?.contains(#"["Accept-Encoding","zstd"]"#) == true, "\(inspected.response?.text ?? "")")
        }
    }

    // Frames may follow one another in zstd: bytes after the last are read as a frame, and
    // garbage is no frame.
    @Test(arguments: [("truncate=1", ContentDecodingError.Code.truncated), ("garbage=1", .corrupt)])
    func damagedBodiesAreTypedErrors(_ damage: String, _ code: ContentDecodingError.Code) async throws {
        try await withSandbox(contentCodings: codings()) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/encoded?coding=zstd&repeat=300&\(damage)"), session: session) }
            #expect(error?.code == .contentDecoding, "\(String(describing: error))")
            #expect((error?.underlying as? ContentDecodingError)?.code == code, "\(String(describing: error?.underlying))")
        }
    }

    @Test func aBombStopsAtTheRatioAndASizeLimitHolds() async throws {
        let ratio = HTTPZstdDecoder(limits: DecompressionLimits(maximumExpansionRatio: 50, ratioCheckThreshold: 64 << 10))
        try await withSandbox(contentCodings: codings(ratio)) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/encoded?coding=zstd&content=a&repeat=1000000"), session: session) }
            #expect((error?.underlying as? ContentDecodingError)?.code == .expansionRatioExceeded)
        }
        let size = HTTPZstdDecoder(limits: DecompressionLimits(maximumDecodedSize: 1000))
        try await withSandbox(contentCodings: codings(size)) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/encoded?coding=zstd&repeat=1000"), session: session) }
            let underlying = error?.underlying as? ContentDecodingError
            #expect(underlying?.code == .sizeLimitExceeded)
            #expect(underlying?.description.contains("1000 bytes") == true)
        }
    }

    /// RFC 9659: a client may refuse a window past 8 MiB, and this one does, so one response
    /// cannot make it hold more.
    @Test func aWindowPast8MiBIsRefused() async throws {
        try await withSandbox(contentCodings: codings()) { sandbox, session in
            let url = sandbox.url("/encoded?coding=zstd&content=abcdefghijklmnopqrstu&repeat=1000000&zstd-window=24")
            let error = await httpError { try await HTTPCycle.get(url, session: session) }
            let underlying = error?.underlying as? ContentDecodingError
            #expect(underlying?.code == .corrupt, "\(String(describing: error))")
            #expect(underlying?.detail.contains("memory") == true, "\(String(describing: underlying))")
            let fits = try await HTTPCycle.get(sandbox.url("/encoded?coding=zstd&content=ab&repeat=1000&zstd-window=23"), session: session)
            #expect(fits.response?.data.count == 2000)
        }
    }

    /// Any split of the input gives the same output: the decoder keeps its state across pieces.
    @Test func anySplitDecodesAlike() async throws {
        var generator = SeededGenerator()
        try await withSandbox { sandbox, session in
            let encoded = try #require(try await HTTPCycle.get(sandbox.url("/encoded?coding=zstd&content=split%20me%20&repeat=20000"), session: session).response?.data)
            let expected = Data(String(repeating: "split me ", count: 20000).utf8)
            for _ in 0..<20 {
                let decoder = ZstdDecompressor()
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
