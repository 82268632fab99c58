import NIOCore
import NIOWebSocket
import Testing

@testable import JewzWebSocket

/// The word-at-a-time masking against RFC 6455 §5.3's definition, at every alignment and tail.
@Suite struct MaskingTests {
    @Test func maskingMatchesTheRFCsDefinitionAtEveryLength() {
        let key: WebSocketMaskingKey = [0x37, 0xFA, 0x21, 0x3D]
        for length in 0...67 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            var buffer = ByteBuffer(bytes: bytes)
            ClientFrame.mask(&buffer, with: key)
            let expected = bytes.enumerated().map { $0.element ^ key[$0.offset % 4] }
            #expect(Array(buffer.readableBytesView) == expected, "length \(length)")
        }
    }
}
