import FuzzDriver
@_spi(Fuzzing) import JewzWebSocket
import NIOCore
import NIOWebSocket

/// Feeds arbitrary bytes to the WebSocket message assembler, as frames (a header byte: FIN,
/// RSV1, opcode; a length byte; the payload), and to the permessage-deflate inflater, as
/// messages split at `FF FE`. No message passes the assembler's limit, no inflated message the
/// inflater's; a trap or an unbounded allocation is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    var frames: [WebSocketFrame] = []
    var index = 0
    while index + 2 <= bytes.count {
        let header = bytes[index]
        let length = min(Int(bytes[index + 1]), bytes.count - index - 2)
        let payload = ByteBuffer(bytes: bytes[(index + 2)..<(index + 2 + length)])
        let opcode = WebSocketOpcode(encodedWebSocketOpcode: header & 0x0F) ?? .binary
        frames.append(WebSocketFrame(fin: header & 0x80 != 0, rsv1: header & 0x40 != 0, opcode: opcode, data: payload))
        index += 2 + length
    }
    let limit = 1024
    for size in WebSocketParsers.assemble(frames, maximumSize: limit) where size > limit {
        fatalError("a message of \(size) bytes passed the limit of \(limit)")
    }
    var messages: [ByteBuffer] = []
    var start = 0
    for i in bytes.indices.dropLast() where bytes[i] == 0xFF && bytes[i + 1] == 0xFE && i >= start {
        messages.append(ByteBuffer(bytes: bytes[start..<i]))
        start = i + 2
    }
    messages.append(ByteBuffer(bytes: bytes[min(start, bytes.count)...]))
    for noContextTakeover in [false, true] {
        for size in WebSocketParsers.inflate(messages, limit: 64 << 10, noContextTakeover: noContextTakeover) {
            if let size, size > 64 << 10 { fatalError("an inflated message of \(size) bytes passed its limit") }
        }
    }
    return 0
}

/// SwiftPM links an executable's entry point as `<target>_main`; hand control to libFuzzer.
@_cdecl("WebSocketFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data, count) }
}
