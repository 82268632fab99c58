import Foundation
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// A streamed call is full duplex: its request body goes on being written while its response
/// body is read. The Sandbox's `/duplex` echoes each part as it arrives, and the request sends
/// its next part only once the echo of the last came back: without both directions at once,
/// nothing moves and the call's deadline ends it.
@Suite struct FullDuplexTests {
    static let parts = (0..<5).map { Data("part \($0);".utf8) }

    @Test func eachPartIsEchoedBeforeTheNextIsSentOverHTTP1() async throws {
        try await withSandbox { sandbox, session in
            try await Self.converse(url: sandbox.url("/duplex"), session: session, version: .http1_1)
        }
    }

    @Test func eachPartIsEchoedBeforeTheNextIsSentOverHTTP2() async throws {
        let certificates = try SandboxCertificates.generate()
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: .trusting(certificates)) { sandbox, session in
            try await Self.converse(url: sandbox.url("/duplex"), session: session, version: .http2)
        }
    }

    /// Sends the parts one at a time, each after the echo of the one before, and checks every
    /// echo came back whole and in order.
    static func converse(url: String, session: HTTPSession, version: HTTPVersion) async throws {
        let (echoes, echoed) = AsyncStream<Void>.makeStream()
        let outgoing = AsyncThrowingStream<Data, any Error> { continuation in
            let sender = Task {
                var waits = echoes.makeAsyncIterator()
                for part in parts {
                    continuation.yield(part)
                    guard await waits.next() != nil else { break }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in sender.cancel() }
        }
        var request = HTTPRequest(url: try #require(URL(string: url)), method: .post)
        request.body = .stream(HTTPBodyStream(outgoing))
        let response = try await session.stream(request, options: .init(timeoutForResource: .seconds(60), retryPolicy: .never))
        #expect(response.statusCode == 200)
        #expect(response.version == version)
        var received = Data()
        var partsSeen = 0
        let expected = parts.reduce(Data(), +)
        for try await chunk in response.body {
            received.append(chunk)
            // Each echo complete lets the sender go on.
            while partsSeen < parts.count, received.count >= parts[0...partsSeen].reduce(0, { $0 + $1.count }) {
                partsSeen += 1
                echoed.yield()
            }
        }
        echoed.finish()
        #expect(received == expected)
    }
}
