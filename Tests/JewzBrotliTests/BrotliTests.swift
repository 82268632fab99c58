import JewzBrotli
import JewzHTTPCore
import JewzTestSupport
import Testing

/// `br` responses from the Sandbox (encoded by libbrotli's encoder), decoded as they arrive.
@Suite struct BrotliTests {
    let checks = ContentCodingChecks(coding: "br") { HTTPBrotliDecoder(limits: $0) }

    @Test func aBodyIsDecodedAndBrIsAdvertised() async throws { try await checks.decodesAndIsAdvertised() }

    @Test(arguments: [("truncate=1", ContentDecodingError.Code.truncated), ("garbage=1", .trailingData)])
    func damagedBodiesAreTypedErrors(_ damage: String, _ code: ContentDecodingError.Code) async throws {
        try await checks.damagedBodyFails(damage, with: code)
    }

    @Test func aBombStopsAtTheRatioAndASizeLimitHolds() async throws { try await checks.limitsHold() }

    @Test func anySplitDecodesAlike() async throws { try await checks.anySplitDecodesAlike() }
}
