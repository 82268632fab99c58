import CZlib
import Crypto
import Foundation
import JewzSandbox

/// A WebSocket server played byte by byte: it answers the opening handshake as RFC 6455 says
/// (or as told), then sends frames built here, each of which may break the protocol.
enum HostileServer {
    /// One frame's bytes, unmasked unless `mask` is given.
    static func frame(
        _ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv: UInt8 = 0, mask: [UInt8]? = nil
    ) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | (rsv << 4) | opcode]
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        switch payload.count {
        case ..<126: bytes.append(maskBit | UInt8(payload.count))
        case ..<65536: bytes += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes += [maskBit | 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
        }
        guard let mask else { return bytes + payload }
        return bytes + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    static func text(_ string: String, fin: Bool = true) -> [UInt8] { frame(0x1, Array(string.utf8), fin: fin) }

    /// A close frame with `code` and `reason`.
    static func close(_ code: UInt16, _ reason: [UInt8] = []) -> [UInt8] {
        frame(0x8, [UInt8(code >> 8), UInt8(code & 0xFF)] + reason)
    }

    /// The `101` for the request `head`, with `extensions` agreed when given.
    static func switching(_ head: String, extensions: String? = nil) -> [UInt8] {
        let key = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
            .map { $0.dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) } ?? ""
        let accept = Data(Insecure.SHA1.hash(data: Data((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
        var answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(accept)\r\n"
        if let extensions { answer += "Sec-WebSocket-Extensions: \(extensions)\r\n" }
        return Array((answer + "\r\n").utf8)
    }

    /// A server that answers the handshake and then sends `frames`, and leaves the connection open.
    static func start(extensions: String? = nil, frames: [UInt8]) async throws -> ScriptedServer {
        try await ScriptedServer.start { request in
            [.send(switching(request.head, extensions: extensions) + frames), .pause(.seconds(30))]
        }
    }

    /// `data` compressed as permessage-deflate sends it: raw deflate, sync-flushed, the last
    /// four bytes left off.
    static func deflated(_ data: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        deflateInit2_(&stream, Z_BEST_SPEED, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 16)
        var input = data
        let written = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                deflate(&stream, Z_SYNC_FLUSH)
                return output.count - Int(stream.avail_out)
            }
        }
        return Array(output[..<(written - 4)])
    }
}
