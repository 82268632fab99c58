import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import JewzWebSocket
import Testing

/// A WebSocket against the Sandbox's echo endpoints: messages both ways, subprotocols, and the
/// closing handshake started by either side.
@Suite struct WebSocketEchoTests {
    @Test func textAndBinaryMessagesComeBackInOrder() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/echo").replacingOccurrences(of: "http://", with: "ws://")))
            let echoed = try await session.withWebSocket(to: url) { socket in
                #expect(socket.response.statusCode == 101)
                #expect(!socket.isCompressed)
                try await socket.send(text: "héllo")
                try await socket.send(data: Data([0, 1, 2, 255]))
                try await socket.send(.text(String(repeating: "x", count: 200_000)))
                var iterator = socket.messages.makeAsyncIterator()
                return [try await iterator.next(), try await iterator.next(), try await iterator.next()]
            }
            #expect(echoed == [.text("héllo"), .binary(Data([0, 1, 2, 255])), .text(String(repeating: "x", count: 200_000))])
        }
    }

    @Test func compressedMessagesAreInflatedByTheServersZlib() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/echo-deflate")))
            let long = String(repeating: "permessage-deflate, ", count: 5_000)
            let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
            let (compressed, echoed) = try await session.withWebSocket(to: url) { socket in
                // Each message compressed on its own (the server asked for no context takeover),
                // a short one sent plain.
                for message: WebSocket.Message in [.text(long), .binary(bytes), .text("tiny"), .text(long)] {
                    try await socket.send(message)
                }
                var iterator = socket.messages.makeAsyncIterator()
                var echoed: [WebSocket.Message?] = []
                for _ in 0..<4 { echoed.append(try await iterator.next()) }
                return (socket.isCompressed, echoed)
            }
            #expect(compressed)
            // Compared whole, reported by size: the messages are long.
            let matches = echoed == [.text(long), .binary(bytes), .text("tiny"), .text(long)]
            #expect(matches, "echoed sizes \(echoed.map { $0?.data.count ?? -1 })")
        }
    }

    @Test func theServerChoosesAnOfferedSubprotocol() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/echo")))
            let chosen = try await session.withWebSocket(to: url, options: .init(subprotocols: ["chat.v2", "chat.v1"])) { $0.subprotocol }
            #expect(chosen == "chat.v2")
        }
    }

    @Test func aCloseOfTheClientsIsAnsweredAndClean() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/echo")))
            // A wait for the server's close long enough that a busy machine answers within it.
            let closure = try await session.withWebSocket(to: url, options: WebSocketOptions(closeTimeout: .seconds(60))) { socket in
                try await socket.send(text: "one")
                return await socket.close(.init(rawValue: 4000), reason: "finished")
            }
            #expect(closure == WebSocket.Closure(code: .init(rawValue: 4000), reason: "", wasClean: true))
        }
    }

    @Test func aCloseOfTheServersEndsTheMessagesWithItsCodeAndReason() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/echo")))
            let (messages, closure) = try await session.withWebSocket(to: url) { socket in
                try await socket.send(text: "before")
                try await socket.send(text: "close:4001:bye now")
                var messages: [WebSocket.Message] = []
                for try await message in socket.messages { messages.append(message) }
                return (messages, socket.closure)
            }
            #expect(messages == [.text("before")])
            #expect(closure == WebSocket.Closure(code: .init(rawValue: 4001), reason: "bye now", wasClean: true))
        }
    }

    @Test func aPingReturnsWhenItsPongComesBack() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/echo")))
            try await session.withWebSocket(to: url) { socket in
                let first = try await socket.ping(Data("one".utf8))
                let second = try await socket.ping()
                #expect(first > .zero && second > .zero)
                await #expect { try await socket.ping(Data(count: 126)) } throws: { ($0 as? WebSocketError)?.code == .protocolViolation }
                await socket.close()
                await #expect { try await socket.ping() } throws: { ($0 as? WebSocketError)?.code == .closed }
            }
        }
    }

    @Test func sendingAfterACloseThrowsClosed() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/echo")))
            try await session.withWebSocket(to: url) { socket in
                await socket.close()
                await #expect { try await socket.send(text: "late") } throws: { ($0 as? WebSocketError)?.code == .closed }
            }
        }
    }

    @Test func manyMessagesArriveWhole() async throws {
        try await withSandbox { sandbox, session in
            let url = try #require(URL(string: sandbox.url("/ws/count/300?size=70000")))
            let expected = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0) })
            let (count, closure) = try await session.withWebSocket(to: url, options: .init(bufferedMessages: 2)) { socket in
                var count = 0
                for try await message in socket.messages {
                    #expect(message == .binary(expected))
                    count += 1
                }
                return (count, socket.closure)
            }
            #expect(count == 300)
            #expect(closure?.code == .normalClosure)
        }
    }

    @Test func aURLOfAnotherSchemeIsRefusedBeforeAnythingIsSent() async throws {
        try await withSandbox { _, session in
            let url = try #require(URL(string: "ftp://example.com/socket"))
            await #expect { try await session.withWebSocket(to: url) { _ in } } throws: { ($0 as? WebSocketError)?.code == .invalidURL }
        }
    }

    @Test func anEndpointThatIsNotAWebSocketIsARejectedHandshakeWithTheAnswer() async throws {
        try await withSandbox { sandbox, session in
            for (path, status) in [("/hello/", 200), ("/ws/nothing-here", 426)] {
                let url = try #require(URL(string: sandbox.url(path)))
                await #expect {
                    try await session.withWebSocket(to: url) { _ in }
                } throws: { error in
                    let error = error as? WebSocketError
                    return error?.code == .handshakeRejected && error?.response?.statusCode == status
                }
            }
        }
    }
}
