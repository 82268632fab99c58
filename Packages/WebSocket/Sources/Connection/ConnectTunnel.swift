import Foundation
import JewzHTTPCore
import NIOCore

/// An HTTP proxy's tunnel (RFC 9110 §9.3.6): `CONNECT host:port`, with the proxy's credentials
/// when it has some, and a `2xx` before the connection is the target's.
enum ConnectTunnel {
    /// The most a proxy's answer may take.
    static let maximumAnswerSize = 16 << 10

    /// - Throws: `HTTPError` ``HTTPError/Code/connectionFailed`` when the proxy refuses.
    static func open(_ channel: any Channel, host: String, port: Int, proxy: AsyncHTTPClientTransport.Configuration.Proxy) async throws {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var head = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let credentials = proxy.credentials {
            head += "Proxy-Authorization: Basic \(Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString())\r\n"
        }
        head += "\r\n"
        let answered = channel.eventLoop.makePromise(of: String.self)
        try await channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(AnswerReader(promise: answered))
        }.get()
        channel.closeFuture.whenComplete { _ in answered.fail(HTTPError.connectionFailed(reason: "the proxy closed the connection")) }
        try await channel.writeAndFlush(ByteBuffer(string: head)).get()
        let statusLine = try await answered.futureResult.get()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[1].hasPrefix("2") else {
            throw HTTPError.connectionFailed(reason: "the proxy refused the tunnel to \(authority): \(statusLine)")
        }
    }

    /// Reads the proxy's answer up to its blank line and leaves.
    private final class AnswerReader: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let promise: EventLoopPromise<String>
        private var received = ByteBuffer()

        init(promise: EventLoopPromise<String>) {
            self.promise = promise
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var chunk = unwrapInboundIn(data)
            received.writeBuffer(&chunk)
            guard let end = received.readableBytesView.firstRange(of: Array("\r\n\r\n".utf8)) else {
                if received.readableBytes > ConnectTunnel.maximumAnswerSize {
                    promise.fail(HTTPError.connectionFailed(reason: "the proxy's answer to CONNECT has no end"))
                    context.close(promise: nil)
                }
                return
            }
            let head = String(decoding: received.readableBytesView[..<end.lowerBound], as: UTF8.self)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            promise.succeed(String(head.prefix { $0 != "\r" }))
        }
    }
}
