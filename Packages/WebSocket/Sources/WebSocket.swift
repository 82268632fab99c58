import Foundation
import JewzHTTPCore
import NIOCore

/// An open WebSocket (RFC 6455): read its ``messages``, ``send(_:)`` yours, ``close(_:reason:)``
/// it. Made by ``JewzHTTPCore/HTTPSession/withWebSocket(_:options:_:)``, which closes it when
/// its closure returns.
///
/// Both ways are paced: the socket is read only as fast as ``messages`` is iterated (past
/// ``WebSocketOptions/bufferedMessages``), and ``send(_:)`` waits while the connection cannot
/// take more. Pings are answered without the reader's help while it keeps reading.
public final class WebSocket: Sendable {
    /// The server's answer to the opening handshake: status `101`, its header fields.
    public let response: HTTPResponse
    /// The subprotocol the server chose among ``WebSocketOptions/subprotocols``, if any.
    public let subprotocol: String?
    /// Whether the server agreed to permessage-deflate.
    public let isCompressed: Bool
    /// The server's messages as they arrive. It ends after the closing handshake, and throws
    /// ``WebSocketError`` when the connection fails (the messages before the failure come
    /// first). One reader: iterate it from one task.
    public let messages: Messages

    private let outbound: NIOAsyncChannelOutboundWriter<OutboundCommand>
    private let channel: any Channel
    private let state: ConnectionState
    private let pingTimeout: Duration

    init(
        response: HTTPResponse, agreement: OpeningHandshake.Agreement, inbound: NIOAsyncChannelInboundStream<Message>,
        outbound: NIOAsyncChannelOutboundWriter<OutboundCommand>, channel: any Channel, state: ConnectionState, pingTimeout: Duration
    ) {
        self.response = response
        subprotocol = agreement.subprotocol
        isCompressed = agreement.deflate != nil
        messages = Messages(stream: inbound)
        self.outbound = outbound
        self.channel = channel
        self.state = state
        self.pingTimeout = pingTimeout
    }

    /// How the connection ended; `nil` while it is open.
    public var closure: Closure? { state.closure }

    /// Sends a message, compressed when permessage-deflate was agreed and it is large enough.
    /// Returns once the connection took it; waits while the connection cannot take more.
    ///
    /// - Throws: ``WebSocketError/Code/closed`` once a close began.
    public func send(_ message: Message) async throws {
        try await write(.message(message))
    }

    /// Sends a text message.
    ///
    /// - Throws: ``WebSocketError/Code/closed`` once a close began.
    public func send(text: String) async throws {
        try await write(.message(.text(text)))
    }

    /// Sends a binary message.
    ///
    /// - Throws: ``WebSocketError/Code/closed`` once a close began.
    public func send(data: Data) async throws {
        try await write(.message(.binary(data)))
    }

    /// Sends a ping with up to 125 bytes of payload and returns when the server's pong with
    /// that payload comes back (a pong is not a message). Keep-alive pings
    /// (``WebSocketOptions/pingInterval``) are sent for you.
    ///
    /// - Returns: how long the answer took.
    /// - Throws: ``WebSocketError/Code/pingTimedOut`` when no pong came within
    ///   ``WebSocketOptions/pingTimeout``; ``WebSocketError/Code/closed`` once a close began or when
    ///   the connection ends first; ``WebSocketError/Code/protocolViolation`` for a payload over
    ///   125 bytes.
    @discardableResult
    public func ping(_ payload: Data = Data()) async throws -> Duration {
        guard payload.count <= 125 else { throw WebSocketError(.protocolViolation, "a ping's payload is at most 125 bytes, not \(payload.count)") }
        let started = ContinuousClock.now
        try await state.pongs.waitForPong(of: payload, timeout: pingTimeout) {
            try await self.write(.ping(ByteBuffer(bytes: payload)))
        }
        return ContinuousClock.now - started
    }

    /// Starts the closing handshake and waits for it: the server's close frame, then the end
    /// of the connection, for at most ``WebSocketOptions/closeTimeout``. Messages the server
    /// sent before its close frame still reach ``messages``, up to
    /// ``WebSocketOptions/bufferedMessages`` of them. Closing a closed socket returns how it ended.
    ///
    /// - Parameters:
    ///   - code: a code a client may send (``CloseCode/isSendable``); another is sent as
    ///     ``CloseCode/normalClosure``.
    ///   - reason: text for the server, cut to 123 bytes.
    /// - Returns: how the connection ended.
    @discardableResult
    public func close(_ code: CloseCode = .normalClosure, reason: String = "") async -> Closure {
        let sendable = code.isSendable ? code : .normalClosure
        if state.beginClosing() { try? await outbound.write(.close(sendable, reason)) }
        try? await channel.closeFuture.get()
        return state.closure ?? Closure(code: .abnormalClosure, reason: "", wasClean: false)
    }

    private func write(_ command: OutboundCommand) async throws {
        guard !state.isClosing else { throw WebSocketError(.closed, "") }
        do {
            try await outbound.write(command)
        } catch {
            throw WebSocketError(.closed, "")
        }
    }
}

extension WebSocket {
    /// The server's messages, in order (``WebSocket/messages``).
    public struct Messages: AsyncSequence, Sendable {
        /// A message received.
        public typealias Element = Message
        let stream: NIOAsyncChannelInboundStream<Message>

        /// Receives the messages, one at a time, until the connection closes.
        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: NIOAsyncChannelInboundStream<Message>.AsyncIterator

            /// The next message; `nil` after the closing handshake.
            ///
            /// - Throws: ``WebSocketError`` when the connection failed.
            public mutating func next() async throws -> Message? {
                do {
                    return try await base.next()
                } catch let error as WebSocketError {
                    throw error
                } catch {
                    throw WebSocketError(.connectionLost, String(describing: error))
                }
            }
        }

        /// An iterator over the messages received; one reader at a time.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator())
        }
    }
}
