import NIOCore
import NIOPosix

/// Reads a client's proxy handshake (an HTTP `CONNECT` request or the SOCKS5 greeting and
/// request), connects to the target, answers, then leaves the two connections glued.
final class ProxyHandshake: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The most a handshake may take before the proxy gives up on the client.
    static let maximumHandshakeSize = 16 << 10

    private enum Stage {
        case httpRequest, socksGreeting, socksRequest, connecting, done
    }

    private let kind: SandboxProxy.Kind
    private let expectedAuthorization: String?
    private let log: TunnelLog
    private var stage: Stage
    private var buffer = ByteBuffer()

    init(kind: SandboxProxy.Kind, expectedAuthorization: String?, log: TunnelLog) {
        self.kind = kind
        self.expectedAuthorization = expectedAuthorization
        self.log = log
        stage = kind == .http ? .httpRequest : .socksGreeting
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var chunk = unwrapInboundIn(data)
        buffer.writeBuffer(&chunk)
        guard buffer.readableBytes <= Self.maximumHandshakeSize else { return context.close(promise: nil) }
        advance(context: context)
    }

    private func advance(context: ChannelHandlerContext) {
        switch stage {
        case .httpRequest: readConnectRequest(context: context)
        case .socksGreeting: readSOCKSGreeting(context: context)
        case .socksRequest: readSOCKSRequest(context: context)
        case .connecting, .done: break
        }
    }

    // MARK: HTTP CONNECT

    private func readConnectRequest(context: ChannelHandlerContext) {
        let bytes = buffer.readableBytesView
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
        buffer.moveReaderIndex(forwardBy: end.upperBound - bytes.startIndex)
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.first.map { $0.split(separator: " ") } ?? []
        guard requestLine.count == 3, requestLine[0] == "CONNECT", let target = Target(authority: String(requestLine[1])) else {
            return refuse("405 Method Not Allowed", context: context)
        }
        if let expectedAuthorization {
            let given = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
                .map { $0.dropFirst("proxy-authorization:".count).trimmingCharacters(in: .whitespaces) }
            guard given == expectedAuthorization else {
                log.refused.withLock { $0 += 1 }
                return refuse(
                    "407 Proxy Authentication Required", extra: "Proxy-Authenticate: Basic realm=\"sandbox\"\r\n",
                    context: context)
            }
        }
        connect(to: target, context: context) { succeeded in
            succeeded ? "HTTP/1.1 200 Connection Established\r\n\r\n" : "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"
        }
    }

    private func refuse(_ status: String, extra: String = "", context: ChannelHandlerContext) {
        stage = .done
        let answer = "HTTP/1.1 \(status)\r\n\(extra)Content-Length: 0\r\nConnection: close\r\n\r\n"
        answerAndClose(ByteBuffer(string: answer), context: context)
    }

    // MARK: SOCKS5 (RFC 1928)

    private func readSOCKSGreeting(context: ChannelHandlerContext) {
        let bytes = Array(buffer.readableBytesView)
        guard bytes.count >= 2, bytes.count >= 2 + Int(bytes[1]) else { return }
        let methods = bytes[2..<(2 + Int(bytes[1]))]
        buffer.moveReaderIndex(forwardBy: 2 + methods.count)
        guard bytes[0] == 5, methods.contains(0) else {
            stage = .done
            answerAndClose(ByteBuffer(bytes: [5, 0xFF]), context: context)
            return
        }
        stage = .socksRequest
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: [5, 0])), promise: nil)
        advance(context: context)
    }

    private func readSOCKSRequest(context: ChannelHandlerContext) {
        let bytes = Array(buffer.readableBytesView)
        guard bytes.count >= 5 else { return }
        let addressLength: Int
        switch bytes[3] {
        case 1: addressLength = 4
        case 3: addressLength = 1 + Int(bytes[4])
        case 4: addressLength = 16
        default: return context.close(promise: nil)
        }
        guard bytes.count >= 4 + addressLength + 2 else { return }
        buffer.moveReaderIndex(forwardBy: 4 + addressLength + 2)
        let address = bytes[4..<(4 + addressLength)]
        let host: String
        switch bytes[3] {
        case 1: host = address.map(String.init).joined(separator: ".")
        case 3: host = String(decoding: address.dropFirst(), as: UTF8.self)
        default: host = stride(from: 0, to: 16, by: 2).map { index in
            String(Int(address[address.startIndex + index]) << 8 | Int(address[address.startIndex + index + 1]), radix: 16)
        }.joined(separator: ":")
        }
        let port = Int(bytes[4 + addressLength]) << 8 | Int(bytes[5 + addressLength])
        guard bytes[0] == 5, bytes[1] == 1, let target = Target(host: host, port: port) else {
            stage = .done
            answerAndClose(ByteBuffer(bytes: [5, 7, 0, 1, 0, 0, 0, 0, 0, 0]), context: context)
            return
        }
        connect(to: target, context: context) { succeeded in
            String(decoding: [5, succeeded ? 0 : 5, 0, 1, 0, 0, 0, 0, 0, 0], as: UTF8.self)
        }
    }

    // MARK: Tunnel

    /// Connects to `target`, answers the client with `answer(succeeded)`, and glues the two
    /// channels together on success.
    private func connect(to target: Target, context: ChannelHandlerContext, answer: @escaping (Bool) -> String) {
        stage = .connecting
        context.channel.setOption(.autoRead, value: false).whenComplete { _ in }
        let client = context.channel
        let log = self.log
        ClientBootstrap(group: context.eventLoop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: target.host, port: target.port)
            .assumeIsolated()
            .whenComplete { result in
                switch result {
                case .success(let upstream):
                    log.targets.withLock { $0.append("\(target.host):\(target.port)") }
                    self.stage = .done
                    var leftover = self.buffer
                    context.writeAndFlush(self.wrapOutboundOut(ByteBuffer(bytes: Array(answer(true).utf8))), promise: nil)
                    let (local, remote) = ProxyGlue.pair()
                    do {
                        try client.pipeline.syncOperations.addHandler(local)
                        try upstream.pipeline.syncOperations.addHandler(remote)
                        if leftover.readableBytes > 0 {
                            upstream.writeAndFlush(leftover.readSlice(length: leftover.readableBytes), promise: nil)
                        }
                        context.pipeline.syncOperations.removeHandler(self, promise: nil)
                        client.setOption(.autoRead, value: true).whenComplete { _ in }
                    } catch {
                        upstream.close(promise: nil)
                        client.close(promise: nil)
                    }
                case .failure:
                    self.stage = .done
                    self.answerAndClose(ByteBuffer(bytes: Array(answer(false).utf8)), context: context)
                }
            }
    }

    /// Sends a refusal, then closes once it is written.
    private func answerAndClose(_ answer: ByteBuffer, context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(answer)).whenComplete { _ in channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Where a client asked to be tunnelled: loopback only, since the Sandbox never reaches out.
struct Target {
    let host: String
    let port: Int

    init?(host: String, port: Int) {
        let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard ["127.0.0.1", "localhost", "::1", "0:0:0:0:0:0:0:1"].contains(host), (1...65_535).contains(port) else {
            return nil
        }
        self.host = host
        self.port = port
    }

    init?(authority: String) {
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else {
            return nil
        }
        self.init(host: String(authority[..<colon]), port: port)
    }
}
