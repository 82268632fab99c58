import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The Sandbox's WebSocket endpoints, upgraded from HTTP/1.1 by SwiftNIO's server upgrader:
///
/// | path | does |
/// | --- | --- |
/// | `/ws/echo` | sends every text and binary message back; the text `close:CODE:REASON` makes it close with that code |
/// | `/ws/echo-deflate` | the echo, agreeing to permessage-deflate with `client_no_context_takeover`: it inflates what comes (with zlib, not the toolkit's code) and answers uncompressed |
/// | `/ws/headers` | sends the handshake's request header fields as one JSON text message, then echoes |
/// | `/ws/count/N?size=S` | sends N binary messages of S bytes (1024), byte i = i mod 256, then closes with 1000 |
/// | `/ws/basic/USER/PASSWORD` | the echo, for Basic credentials `USER:PASSWORD`; without them a `401` challenge |
///
/// A requested subprotocol is agreed to (the first offered); permessage-deflate only by `/ws/echo-deflate`.
enum SandboxWebSockets {
    /// The upgrader for the HTTP/1.1 pipeline.
    static func upgrader() -> NIOWebSocketServerUpgrader {
        NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 24,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(answerHeaders(for: head))
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Endpoint(head: head))
                }
            })
    }

    /// The extra fields of the `101`, or `nil` to answer as HTTP (no such endpoint, no credentials).
    private static func answerHeaders(for head: HTTPRequestHead) -> HTTPHeaders? {
        let segments = head.uri.split(separator: "?").first.map { $0.split(separator: "/").map(String.init) } ?? []
        guard segments.first == "ws", segments.count >= 2 else { return nil }
        switch (segments[1], segments.count) {
        case ("echo", 2), ("echo-deflate", 2), ("headers", 2), ("count", 3): break
        case ("basic", 4):
            let expected = "Basic " + Data("\(segments[2]):\(segments[3])".utf8).base64EncodedString()
            guard head.headers["Authorization"].first == expected else { return nil }
        default: return nil
        }
        var headers = HTTPHeaders()
        if segments[1] == "echo-deflate", head.headers["Sec-WebSocket-Extensions"].contains(where: { $0.contains("permessage-deflate") }) {
            headers.add(name: "Sec-WebSocket-Extensions", value: "permessage-deflate; client_no_context_takeover")
        }
        if let offered = head.headers["Sec-WebSocket-Protocol"].first?.split(separator: ",").first {
            headers.add(name: "Sec-WebSocket-Protocol", value: offered.trimmingCharacters(in: .whitespaces))
        }
        return headers
    }

    /// What `/ws/…` answers over plain HTTP: a challenge for `/ws/basic`, else 426.
    static func respond(to request: SandboxRequest, segments: [String]) -> SandboxResponse {
        if segments.count == 4, segments[1] == "basic" {
            return SandboxResponse(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"sandbox\"")], body: Data("credentials needed".utf8))
        }
        return SandboxResponse(status: 426, headers: [("Upgrade", "websocket")], body: Data("connect with a WebSocket client".utf8))
    }

    /// One upgraded connection.
    final class Endpoint: ChannelInboundHandler {
        typealias InboundIn = WebSocketFrame
        typealias OutboundOut = WebSocketFrame

        private let head: HTTPRequestHead
        /// Whether the client's messages may come compressed (`/ws/echo-deflate`).
        private let inflates: Bool
        private var fragments: (opcode: WebSocketOpcode, data: ByteBuffer, compressed: Bool)?
        private var closing = false

        init(head: HTTPRequestHead) {
            self.head = head
            inflates = head.uri.split(separator: "?").first == "/ws/echo-deflate"
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let path = head.uri.split(separator: "?").first.map(String.init) ?? ""
            let segments = path.split(separator: "/").map(String.init)
            if segments.count == 2, segments[1] == "headers" {
                let fields = Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
                let json = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
                send(.text, context.channel.allocator.buffer(bytes: json), context: context)
            }
            if segments.count == 3, segments[1] == "count", let count = Int(segments[2]), count >= 0 {
                let size = URLComponents(string: head.uri)?.queryItems?.first { $0.name == "size" }?.value.flatMap(Int.init) ?? 1024
                let bytes = (0..<min(max(size, 0), 1 << 24)).map { UInt8(truncatingIfNeeded: $0) }
                sendCount(count, of: context.channel.allocator.buffer(bytes: bytes), context: context)
            }
        }

        /// Sends `count` messages, each once the last went out, then a close.
        private func sendCount(_ count: Int, of bytes: ByteBuffer, context: ChannelHandlerContext) {
            guard count > 0 else { return close(code: 1000, reason: "done", context: context) }
            let frame = WebSocketFrame(fin: true, opcode: .binary, data: bytes)
            context.writeAndFlush(wrapOutboundOut(frame)).assumeIsolated().whenSuccess { [self] in
                sendCount(count - 1, of: bytes, context: context)
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.opcode {
            case .ping:
                send(.pong, frame.unmaskedData, context: context)
            case .connectionClose:
                guard !closing else { return context.close(promise: nil) }
                closing = true
                var payload = frame.unmaskedData
                let code = payload.readInteger(as: UInt16.self)
                var echo = context.channel.allocator.buffer(capacity: 2)
                if let code { echo.writeInteger(code) }
                let reply = WebSocketFrame(fin: true, opcode: .connectionClose, data: echo)
                context.writeAndFlush(wrapOutboundOut(reply)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            case .text, .binary, .continuation:
                receive(frame, context: context)
            default:
                break
            }
        }

        private func receive(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
            var data = frame.unmaskedData
            if frame.opcode == .continuation {
                guard var current = fragments else { return }
                current.data.writeBuffer(&data)
                fragments = current
            } else {
                fragments = (frame.opcode, data, frame.rsv1)
            }
            guard frame.fin, let (opcode, received, compressed) = fragments else { return }
            fragments = nil
            var message = received
            if compressed {
                guard inflates, let bytes = SandboxCompression.inflateMessage(Array(received.readableBytesView), limit: 1 << 24) else {
                    return close(code: 1007, reason: "not deflate", context: context)
                }
                message = context.channel.allocator.buffer(bytes: bytes)
            }
            if opcode == .text, let text = message.getString(at: message.readerIndex, length: message.readableBytes), text.hasPrefix("close:") {
                let parts = text.split(separator: ":", maxSplits: 2).map(String.init)
                return close(code: parts.count > 1 ? UInt16(parts[1]) ?? 1000 : 1000, reason: parts.count > 2 ? parts[2] : "", context: context)
            }
            send(opcode, message, context: context)
        }

        private func send(_ opcode: WebSocketOpcode, _ data: ByteBuffer, context: ChannelHandlerContext) {
            guard !closing else { return }
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, data: data)), promise: nil)
        }

        /// Starts a closing handshake of the server's.
        private func close(code: UInt16, reason: String, context: ChannelHandlerContext) {
            guard !closing else { return }
            closing = true
            var payload = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
            payload.writeInteger(code)
            payload.writeString(reason)
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)), promise: nil)
        }
    }
}
