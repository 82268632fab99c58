import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import JewzWebSocket
import Testing

/// Servers that break RFC 6455 or RFC 7692, one case per family the Autobahn test suite scores
/// (its case numbers in each name): the client fails the connection with the close code the
/// RFC names and a typed error, after the messages that came before, and never grows memory.
@Suite struct HostileWebSocketServerTests {
    typealias H = HostileServer

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var frames: [UInt8]
        var extensions: String? = nil
        var maximumMessageSize = 16 << 20
        /// The messages read before the end.
        var messages: [WebSocket.Message] = []
        /// The error the messages end with; `nil` for a clean closing handshake.
        var error: WebSocketError.Code?
        /// The close code the connection ended with.
        var code: WebSocket.CloseCode
    }

    static let cases: [Case] = [
        // 1 — framing
        Case(testDescription: "1.1.6 a 65,536-byte text in a 64-bit length", frames: H.text(String(repeating: "*", count: 65536)) + H.close(1000),
             messages: [.text(String(repeating: "*", count: 65536))], code: .normalClosure),
        // 2 — pings and pongs
        Case(testDescription: "2.5 a ping longer than 125 bytes", frames: H.frame(0x9, Array(repeating: 1, count: 126)),
             error: .protocolViolation, code: .protocolError),
        Case(testDescription: "2.7 an unsolicited pong is ignored", frames: H.frame(0xA, [1, 2]) + H.text("after") + H.close(1000),
             messages: [.text("after")], code: .normalClosure),
        // 3 — reserved bits
        Case(testDescription: "3.1 RSV1 without an extension", frames: H.text("ok") + H.frame(0x1, Array("x".utf8), rsv: 0b100),
             messages: [.text("ok")], error: .protocolViolation, code: .protocolError),
        Case(testDescription: "3.2 RSV2", frames: H.frame(0x1, Array("x".utf8), rsv: 0b010), error: .protocolViolation, code: .protocolError),
        Case(testDescription: "3.4 RSV3 on a ping", frames: H.frame(0x9, [], rsv: 0b001), error: .protocolViolation, code: .protocolError),
        // 4 — opcodes
        Case(testDescription: "4.1.1 reserved data opcode 3", frames: H.frame(0x3, []), error: .protocolViolation, code: .protocolError),
        Case(testDescription: "4.2.1 reserved control opcode 11", frames: H.frame(0xB, []), error: .protocolViolation, code: .protocolError),
        // 5 — fragmentation
        Case(testDescription: "5.1 a fragmented ping", frames: H.frame(0x9, [1], fin: false) + H.frame(0x0, [2]),
             error: .protocolViolation, code: .protocolError),
        Case(testDescription: "5.6 a ping between the fragments of a text", frames: H.text("frag", fin: false) + H.frame(0x9, [7])
             + H.frame(0x0, Array("mented".utf8)) + H.close(1000), messages: [.text("fragmented")], code: .normalClosure),
        Case(testDescription: "5.9 a continuation with nothing to continue", frames: H.frame(0x0, Array("x".utf8)),
             error: .protocolViolation, code: .protocolError),
        Case(testDescription: "5.18 a new text before the last one ended", frames: H.text("a", fin: false) + H.text("b"),
             error: .protocolViolation, code: .protocolError),
        // 6 — UTF-8
        Case(testDescription: "6.2.3 a character split across fragments is valid", frames: H.frame(0x1, [0xCE], fin: false)
             + H.frame(0x0, [0xBA, 0xE1, 0xBD], fin: false) + H.frame(0x0, [0xB9]) + H.close(1000), messages: [.text("κό")], code: .normalClosure),
        Case(testDescription: "6.3.1 invalid UTF-8 in a text", frames: H.frame(0x1, [0xCE, 0xBA, 0xED, 0xA0, 0x80]),
             error: .invalidUTF8, code: .invalidPayload),
        Case(testDescription: "6.4.1 invalid UTF-8 fails at its fragment, before the message ends", frames: H.frame(0x1, [0xF4, 0x90], fin: false),
             error: .invalidUTF8, code: .invalidPayload),
        Case(testDescription: "6.x a text ending mid-character", frames: H.frame(0x1, [0x61, 0xE2, 0x82]), error: .invalidUTF8, code: .invalidPayload),
        // 7 — close handling
        Case(testDescription: "7.3.2 a close frame of one byte", frames: H.frame(0x8, [0x03]), error: .protocolViolation, code: .protocolError),
        Case(testDescription: "7.9.1 close code 0", frames: H.close(0), error: .protocolViolation, code: .protocolError),
        Case(testDescription: "7.9.3 close code 1004", frames: H.close(1004), error: .protocolViolation, code: .protocolError),
        Case(testDescription: "7.9.5 close code 1006", frames: H.close(1006), error: .protocolViolation, code: .protocolError),
        Case(testDescription: "7.9.9 close code 5000", frames: H.close(5000), error: .protocolViolation, code: .protocolError),
        Case(testDescription: "7.7.13 close code 4999 is clean", frames: H.close(4999, Array("bye".utf8)), code: .init(rawValue: 4999)),
        Case(testDescription: "7.5.1 a close reason that is not UTF-8", frames: H.close(1000, [0xFF, 0xFE]), error: .invalidUTF8, code: .invalidPayload),
        Case(testDescription: "7.1.x a masked frame from the server", frames: H.frame(0x1, Array("x".utf8), mask: [1, 2, 3, 4]),
             error: .protocolViolation, code: .protocolError),
        // 9 — limits
        Case(testDescription: "9.1 a text over the message limit", frames: H.text(String(repeating: "x", count: 4097)), maximumMessageSize: 4096,
             error: .messageTooBig, code: .messageTooBig),
        Case(testDescription: "9.3 fragments that add up past the limit", frames: H.frame(0x2, Array(repeating: 1, count: 3000), fin: false)
             + H.frame(0x0, Array(repeating: 1, count: 3000)), maximumMessageSize: 4096, error: .messageTooBig, code: .messageTooBig),
        // 12, 13 — permessage-deflate
        Case(testDescription: "12.1 a compressed text", frames: H.frame(0x1, H.deflated(Array("squeeze me squeeze me squeeze me".utf8)), rsv: 0b100)
             + H.close(1000), extensions: "permessage-deflate", messages: [.text("squeeze me squeeze me squeeze me")], code: .normalClosure),
        Case(testDescription: "13.x a deflate bomb stops at the limit", frames: H.frame(0x2, H.deflated(Array(repeating: 0, count: 16 << 20)), rsv: 0b100),
             extensions: "permessage-deflate; server_no_context_takeover", maximumMessageSize: 1 << 20, error: .messageTooBig, code: .messageTooBig),
        Case(testDescription: "13.x RSV1 on a continuation", frames: H.frame(0x1, H.deflated(Array("ab".utf8)), fin: false, rsv: 0b100)
             + H.frame(0x0, [0], rsv: 0b100), extensions: "permessage-deflate", error: .protocolViolation, code: .protocolError),
        Case(testDescription: "13.x compressed bytes that are not deflate", frames: H.frame(0x2, [0xFF, 0xFF, 0xFF], rsv: 0b100),
             extensions: "permessage-deflate", error: .protocolViolation, code: .protocolError),
    ]

    @Test(arguments: cases)
    func theConnectionEndsAsTheRFCSays(_ hostile: Case) async throws {
        let server = try await HostileServer.start(extensions: hostile.extensions, frames: hostile.frames)
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        var options = WebSocketOptions(maximumMessageSize: hostile.maximumMessageSize, closeTimeout: .milliseconds(500))
        options.request.retryPolicy = .never
        let url = try #require(URL(string: server.url("/hostile")))
        let (messages, error, closure) = try await session.withWebSocket(to: url, options: options) { socket in
            var messages: [WebSocket.Message] = []
            do {
                for try await message in socket.messages { messages.append(message) }
                return (messages, WebSocketError?.none, socket.closure)
            } catch let error as WebSocketError {
                return (messages, error, socket.closure)
            }
        }
        #expect(messages == hostile.messages)
        #expect(error?.code == hostile.error)
        #expect(closure?.code == hostile.code)
        #expect(closure?.wasClean == (hostile.error == nil))
        try await session.shutdown()
        try await server.shutdown()
    }

    @Test func anExtensionThatWasNotOfferedIsARejectedHandshake() async throws {
        let server = try await HostileServer.start(extensions: "x-webkit-deflate-frame", frames: [])
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        let url = try #require(URL(string: server.url("/")))
        await #expect { try await session.withWebSocket(to: url) { _ in } } throws: { ($0 as? WebSocketError)?.code == .handshakeRejected }
        try await session.shutdown()
        try await server.shutdown()
    }

    @Test func aWrongAcceptValueIsARejectedHandshake() async throws {
        let server = try await ScriptedServer.start { _ in
            [.send("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: bm9wZQ==\r\n\r\n")]
        }
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        let url = try #require(URL(string: server.url("/")))
        await #expect {
            try await session.withWebSocket(to: url) { _ in }
        } throws: { error in
            (error as? WebSocketError)?.code == .handshakeRejected && "\(error)".contains("Sec-WebSocket-Accept")
        }
        try await session.shutdown()
        try await server.shutdown()
    }

    @Test func aPingTheServerDoesNotAnswerTimesOut() async throws {
        let server = try await HostileServer.start(frames: [])
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        let url = try #require(URL(string: server.url("/")))
        let options = WebSocketOptions(pingTimeout: .milliseconds(100), closeTimeout: .milliseconds(100))
        _ = try await session.withWebSocket(to: url, options: options) { socket in
            await #expect { try await socket.ping(Data("anyone?".utf8)) } throws: { ($0 as? WebSocketError)?.code == .pingTimedOut }
        }
        try await session.shutdown()
        try await server.shutdown()
    }

    @Test func aServerThatGoesSilentFailsTheKeepAlive() async throws {
        let server = try await HostileServer.start(frames: [])
        let session = HTTPSession(configuration: .init { $0.logger = quietLogger })
        let options = WebSocketOptions(pingInterval: .milliseconds(50), pingTimeout: .milliseconds(200), closeTimeout: .milliseconds(100))
        let url = try #require(URL(string: server.url("/")))
        let error = try await session.withWebSocket(to: url, options: options) { socket in
            do {
                for try await _ in socket.messages {}
                return WebSocketError?.none
            } catch let error as WebSocketError {
                return error
            }
        }
        #expect(error?.code == .pingTimedOut)
        try await session.shutdown()
        try await server.shutdown()
    }
}
