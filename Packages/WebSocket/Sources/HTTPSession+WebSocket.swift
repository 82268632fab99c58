import Foundation
import JewzHTTPCore

/// Opening WebSockets along the session's path.
extension HTTPSession {
    /// Opens a WebSocket to `request`'s URL (`ws`, `wss`, or their `http` forms), runs `body`
    /// with it, then closes it: with ``WebSocket/CloseCode/normalClosure`` when `body` returns,
    /// ``WebSocket/CloseCode/goingAway`` when it throws.
    ///
    /// The opening handshake is a request of this session: it goes through the session's
    /// middleware, cookies, authentications (preemptive credentials, a challenge answered on a
    /// new connection) and redirects, over the session's TLS settings and proxies. The
    /// request's own header fields go with it (an `Authorization`, an `Origin`).
    ///
    /// ```swift
    /// try await session.withWebSocket(HTTPRequest(url: URL(string: "wss://echo.example.com/")!)) { socket in
    ///     try await socket.send(text: "hello")
    ///     for try await message in socket.messages {
    ///         print(message)
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: what `body` returned.
    /// - Throws: ``WebSocketError``: ``WebSocketError/Code/invalidURL`` before anything is sent;
    ///   ``WebSocketError/Code/handshakeRejected`` (with the server's answer) when the server
    ///   does not open one. `HTTPError` for the handshake's network failures, timeouts and
    ///   cancellation. What `body` throws.
    public func withWebSocket<Result: Sendable>(
        _ request: HTTPRequest, options: WebSocketOptions = WebSocketOptions(), _ body: (WebSocket) async throws -> Result
    ) async throws -> Result {
        let handshake = OpeningHandshake(subprotocols: options.subprotocols, deflate: options.compression)
        let transport = UpgradeTransport(settings: configuration.transport, handshake: handshake, options: options)
        let response: HTTPResponse
        do {
            response = try await send(
                handshake.request(from: request), options: OpeningHandshake.options(from: options.request), over: transport)
        } catch let error as HTTPError where error.code == .statusCode {
            try? await transport.shutdown()
            throw WebSocketError(.handshakeRejected, "it answered \(error.response?.statusCode ?? 0) rather than 101", response: error.response)
        } catch {
            try? await transport.shutdown()
            throw error
        }
        guard let upgraded = transport.takeUpgraded()?.upgraded else {
            throw WebSocketError(.handshakeRejected, "it answered \(response.statusCode) rather than 101", response: response)
        }
        let agreement: OpeningHandshake.Agreement
        do {
            agreement = try handshake.agreement(with: response)
        } catch {
            try? await upgraded.connection.channel.close()
            throw error
        }
        return try await upgraded.connection.executeThenClose { inbound, outbound in
            let socket = WebSocket(
                response: response, agreement: agreement, inbound: inbound, outbound: outbound, channel: upgraded.connection.channel,
                state: upgraded.state, pingTimeout: options.pingTimeout)
            let result: Result
            do {
                result = try await body(socket)
            } catch {
                await socket.close(.goingAway)
                throw error
            }
            await socket.close()
            return result
        }
    }

    /// Opens a WebSocket to `url`, runs `body` with it, then closes it; see
    /// ``withWebSocket(_:options:_:)``.
    ///
    /// - Throws: as ``withWebSocket(_:options:_:)``.
    public func withWebSocket<Result: Sendable>(
        to url: URL, options: WebSocketOptions = WebSocketOptions(), _ body: (WebSocket) async throws -> Result
    ) async throws -> Result {
        try await withWebSocket(HTTPRequest(url: url), options: options, body)
    }
}
