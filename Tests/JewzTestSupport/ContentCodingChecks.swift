import Foundation
import JewzHTTPCore
import JewzSandbox
import Testing

/// What every content decoder must do, checked against the Sandbox's `/encoded?coding=…`
/// (encoded by the codec's own library): one set of checks that each codec's tests run.
public struct ContentCodingChecks: Sendable {
    /// The `Content-Encoding` token.
    public let coding: String
    /// The decoder, with the limits given.
    public let decoder: @Sendable (DecompressionLimits) -> any HTTPContentDecoder

    public init(coding: String, decoder: @escaping @Sendable (DecompressionLimits) -> any HTTPContentDecoder) {
        self.coding = coding
        self.decoder = decoder
    }

    private func codings(_ limits: DecompressionLimits = DecompressionLimits()) -> ContentCodingRegistry {
        var registry = ContentCodingRegistry()
        registry.register(decoder(limits), for: [coding])
        return registry
    }

    /// A body is decoded, and the session's `Accept-Encoding` names the coding.
    public func decodesAndIsAdvertised(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await withSandbox(contentCodings: codings()) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/encoded?coding=\(coding)&content=Jewzruxin%20&repeat=5000"), session: session)
            #expect(response.text == String(repeating: "Jewzruxin ", count: 5000), sourceLocation: sourceLocation)
            let inspected = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            #expect(try Inspection(inspected).values("Accept-Encoding") == [coding], sourceLocation: sourceLocation)
        }
    }

    /// A body damaged as `damage` says (`truncate=1`, `garbage=1`) fails with `code`.
    public func damagedBodyFails(_ damage: String, with code: ContentDecodingError.Code, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await withSandbox(contentCodings: codings()) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/encoded?coding=\(coding)&repeat=300&\(damage)"), session: session) }
            #expect(error?.code == .contentDecoding, "\(String(describing: error))", sourceLocation: sourceLocation)
            #expect((error?.underlying as? ContentDecodingError)?.code == code, "\(String(describing: error?.underlying))", sourceLocation: sourceLocation)
        }
    }

    /// A million `a`s stop at the ratio bound; a small size limit holds.
    public func limitsHold(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await withSandbox(contentCodings: codings(DecompressionLimits(maximumExpansionRatio: 50, ratioCheckThreshold: 64 << 10))) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/encoded?coding=\(coding)&content=a&repeat=1000000"), session: session) }
            #expect((error?.underlying as? ContentDecodingError)?.code == .expansionRatioExceeded, sourceLocation: sourceLocation)
        }
        try await withSandbox(contentCodings: codings(DecompressionLimits(maximumDecodedSize: 1000))) { sandbox, session in
            let error = await httpError { try await HTTPCycle.get(sandbox.url("/encoded?coding=\(coding)&repeat=1000"), session: session) }
            let underlying = error?.underlying as? ContentDecodingError
            #expect(underlying?.code == .sizeLimitExceeded, sourceLocation: sourceLocation)
            #expect(underlying?.description.contains("1000 bytes") == true, sourceLocation: sourceLocation)
        }
    }

    /// Any split of the input decodes alike: the decoder keeps its state across pieces.
    public func anySplitDecodesAlike(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var generator = SeededGenerator()
        try await withSandbox { sandbox, session in
            let url = sandbox.url("/encoded?coding=\(coding)&content=split%20me%20&repeat=20000")
            let encoded = try await HTTPCycle.get(url, session: session).data
            let expected = Data(String(repeating: "split me ", count: 20000).utf8)
            for _ in 0..<20 {
                let decoding = decoder(DecompressionLimits()).makeDecoding()
                var output = Data()
                var start = 0
                while start < encoded.count {
                    let end = min(encoded.count, start + Int.random(in: 1...4096, using: &generator))
                    try encoded[start..<end].withUnsafeBytes { try decoding.decode($0, into: &output) }
                    start = end
                }
                try decoding.finish(into: &output)
                #expect(output == expected, "\(generator)", sourceLocation: sourceLocation)
            }
        }
    }
}
