import Foundation
import JewzHTTPCore
import JewzLocking
import NIOCore
import NIOHTTP1
import NIOPosix

/// The transport of a WebSocket's opening handshake: each exchange the session's path sends
/// (a first try, a challenge's answer, a redirect's) goes over a connection of its own, opened
/// with the session's transport settings, and the one answered `101` is kept for the WebSocket.
/// AsyncHTTPClient cannot be used here: it has no way to hand over a connection after a response.
final class UpgradeTransport: HTTPTransport {
    private let settings: AsyncHTTPClientTransport.Configuration
    private let handshake: OpeningHandshake
    private let options: WebSocketOptions
    private let upgraded = Mutex<HandshakeHandler.Answer?>(nil)

    init(settings: AsyncHTTPClientTransport.Configuration, handshake: OpeningHandshake, options: WebSocketOptions) {
        self.settings = settings
        self.handshake = handshake
        self.options = options
    }

    /// The connection of the exchange answered `101`, taken once.
    func takeUpgraded() -> HandshakeHandler.Answer? {
        upgraded.withLock { answer in
            defer { answer = nil }
            return answer
        }
    }

    nonisolated(nonsending) func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?, to receiver: inout some HTTPResponseReceiver
    ) async throws {
        let answer: HandshakeHandler.Answer
        do {
            answer = try await exchange(request, timeout: timeout)
        } catch {
            throw HTTPError(transportError: error)
        }
        receiver.receiveVersion(.http1_1)
        let headers = HTTPHeaderFields(answer.head.headers.lazy.map { ($0.name, $0.value) })
        try receiver.receiveHead(statusCode: Int(answer.head.status.code), headers: headers, url: request.url)
        try answer.body.withUnsafeReadableBytes { try receiver.receiveBody($0) }
        if answer.upgraded != nil {
            let replaced = upgraded.withLock { kept in
                defer { kept = answer }
                return kept
            }
            replaced?.upgraded?.connection.channel.close(promise: nil)
        }
    }

    /// Opens a connection, sends the handshake and reads its answer, within `timeout`.
    private func exchange(_ request: HTTPRequest, timeout: Duration?) async throws -> HandshakeHandler.Answer {
        guard request.body == nil else { throw HTTPError.invalidConfiguration("a WebSocket handshake has no body") }
        let head = Self.head(of: request)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let answered = eventLoop.makePromise(of: HandshakeHandler.Answer.self)
        let channel: any Channel
        do {
            channel = try await ChannelOpening.open(to: request.url, on: eventLoop, settings: settings) { [handshake, options] pipeline in
                let encoder = HTTPRequestEncoder()
                let decoder = ByteToMessageHandler(ResponseHeadDecoder())
                try pipeline.addHandler(encoder)
                try pipeline.addHandler(decoder)
                try pipeline.addHandler(HandshakeHandler(promise: answered, decoder: decoder, encoder: encoder, handshake: handshake, options: options))
                // Both parts in this turn: once the answer comes, the HTTP encoder is gone.
                pipeline.write(NIOAny(HTTPClientRequestPart.head(head)), promise: nil)
                pipeline.writeAndFlush(NIOAny(HTTPClientRequestPart.end(nil)), promise: nil)
            }
        } catch {
            answered.fail(error)
            throw error
        }
        let deadline = timeout.map { timeout in
            channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                answered.fail(HTTPError.timedOut)
                channel.close(promise: nil)
            }
        }
        defer { deadline?.cancel() }
        do {
            let answer = try await withTaskCancellationHandler {
                try await answered.futureResult.get()
            } onCancel: {
                answered.fail(CancellationError())
                channel.close(promise: nil)
            }
            if answer.upgraded == nil { try? await channel.close() }
            return answer
        } catch {
            answered.fail(error)
            channel.close(promise: nil)
            throw error
        }
    }

    /// The request's head: its target, its `Host`, then its fields.
    private static func head(of request: HTTPRequest) -> HTTPRequestHead {
        let parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var target = parts?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = parts?.percentEncodedQuery { target += "?" + query }
        var headers = HTTPHeaders()
        if !request.headers.contains("Host") {
            let host = request.url.host ?? ""
            let name = host.contains(":") ? "[\(host)]" : host
            headers.add(name: "Host", value: request.url.port.map { "\(name):\($0)" } ?? name)
        }
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
    }

    func shutdown() async throws {
        takeUpgraded()?.upgraded?.connection.channel.close(promise: nil)
    }
}
