import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import JewzWebSocket
import Testing

/// A gibibyte of messages read at a slow consumer's pace: the socket is read no faster than the
/// reader takes messages, so memory stays bounded. Heavy: runs alone
/// (`JEWZ_HEAVY_TESTS=1 swift test --filter Heavy`).
@Suite(.enabled(if: heavyTestsEnabled)) struct HeavyWebSocketMemoryTests {
    @Test func aGibibyteOfMessagesReadSlowlyStaysUnder100MiB() async throws {
        let count = 16_384
        let size = 64 << 10
        try await withSandbox { sandbox, session in
            try resetPeakResidentSize()
            let before = peakResidentSize() ?? 0
            let url = try #require(URL(string: sandbox.url("/ws/count/\(count)?size=\(size)")))
            let (received, bytes) = try await session.withWebSocket(to: url, options: .init(compression: nil)) { socket in
                var received = 0
                var bytes = 0
                for try await message in socket.messages {
                    received += 1
                    bytes += message.data.count
                    // Slower than loopback: the server must wait for the reader.
                    if received % 64 == 0 { try await Task.sleep(for: .milliseconds(2)) }
                }
                return (received, bytes)
            }
            let peak = try #require(peakResidentSize())
            #expect(received == count)
            #expect(bytes == count * size)
            #expect(peak - before < 100 << 20, "peak grew by \(peak - before) bytes")
        }
    }
}
