import Foundation
import NIOCore
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// HTTP/2 negotiated by ALPN with the Sandbox's TLS listener, which also speaks HTTP/1.1.
@Suite struct HTTP2Tests {
    let certificates: SandboxCertificates

    init() throws {
        certificates = try SandboxCertificates.generate()
    }

    @Test func concurrentRequestsShareOneHTTP2Connection() async throws {
        var configuration = try HTTPSession.Configuration.trusting(certificates)
        // One event loop, so one pool: HTTP/1.1 would need a connection per request in flight.
        configuration.transport.connectionPool.maximumConnectionsPerHost = 1
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let versions = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try Inspection(try await HTTPCycle.get(sandbox.url("/inspect"), session: session)).version
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(versions == Array(repeating: "HTTP/2.0", count: 8))
            #expect(sandbox.connectionCount == 1)
        }
    }

    /// 64 requests at once to an HTTP/2 origin, with the default pool (a client per event loop):
    /// one connection, as raw AsyncHTTPClient, OkHttp and browsers open.
    @Test func sixtyFourConcurrentRequestsToAnHTTP2OriginShareOneConnection() async throws {
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: .trusting(certificates)) { sandbox, session in
            let versions = try await Self.send(64, to: sandbox.url("/echo/?delay=0.2"), session: session)
            #expect(Set(versions) == [.http2])
            #expect(sandbox.connectionCount == 1)
        }
    }

    /// The same to an origin that speaks HTTP/1.1 only: after its first answer its requests are
    /// spread over every event loop's client, so the pool's limit is shared out, not one share.
    @Test func anHTTP1OriginStillGetsThePoolsWholeLimit() async throws {
        var tls = SandboxTLS(certificates: certificates)
        tls.offersHTTP2 = false
        let configuration = try HTTPSession.Configuration.trusting(certificates)
        let limit = configuration.transport.connectionPool.maximumConnectionsPerHost
        let loops = min(System.coreCount, limit)
        try await withSecureSandbox(tls, configuration: configuration) { sandbox, session in
            _ = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            let versions = try await Self.send(limit, to: sandbox.url("/echo/?delay=0.5"), session: session)
            #expect(Set(versions) == [.http1_1])
            #expect(loops == 1 || sandbox.connectionCount > limit / loops, "\(sandbox.connectionCount) connections")
        }
    }

    /// A stream the server refuses unprocessed (`REFUSED_STREAM`) goes again on its own, outside
    /// the retry policy, whatever the method: the server processes the POST once.
    @Test(arguments: [HTTPMethod.post, .get])
    func aRefusedStreamIsSentAgainWhateverItsMethod(method: HTTPMethod) async throws {
        var configuration = try HTTPSession.Configuration.trusting(certificates)
        configuration.retryPolicy = .never
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let key = "refused-\(method)"
            let url = try #require(URL(string: sandbox.url("/counter?key=\(key)&fail=0&refuse=1")))
            let request = HTTPRequest(url: url, method: method, data: method == .post ? Data("order".utf8) : nil)
            let response = try await session.send(request)
            #expect(response.statusCode == 200)
            #expect(response.version == .http2)
            #expect(sandbox.router.streamsRefused == 1)
            #expect(sandbox.router.requestCount(forKey: key) == 1)
        }
    }

    private static func send(_ count: Int, to url: String, session: HTTPSession) async throws -> [HTTPVersion?] {
        try await withThrowingTaskGroup(of: HTTPVersion?.self) { group in
            for _ in 0..<count {
                group.addTask { try await HTTPCycle.get(url, session: session).version }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func http1OnlyKeepsToHTTP1() async throws {
        var configuration = try HTTPSession.Configuration.trusting(certificates)
        configuration.transport.httpVersion = .http1Only
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: configuration) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            #expect(try Inspection(response).version == "HTTP/1.1")
            #expect(response.version == .http1_1)
        }
    }

    @Test func theResponseSaysWhichVersionCarriedIt() async throws {
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: .trusting(certificates)) { sandbox, session in
            let response = try await HTTPCycle.get(sandbox.url("/hello/"), session: session)
            #expect(response.version == .http2)
            #expect(response.version?.description == "HTTP/2")
        }
    }

    @Test func aServerWithoutHTTP2IsSpokenToInHTTP1() async throws {
        var tls = SandboxTLS(certificates: certificates)
        tls.offersHTTP2 = false
        try await withSecureSandbox(tls, configuration: .trusting(certificates)) { sandbox, session in
            let inspection = try Inspection(try await HTTPCycle.get(sandbox.url("/inspect"), session: session))
            #expect(inspection.version == "HTTP/1.1")
        }
    }

    @Test func bodiesTravelBothWaysOverHTTP2() async throws {
        try await withSecureSandbox(SandboxTLS(certificates: certificates), configuration: .trusting(certificates)) { sandbox, session in
            let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
            let cycle = try HTTPCycle(sandbox.url("/dumpupload/"), method: .post, session: session)
            cycle.request.data = payload
            try await cycle.start()
            #expect(cycle.response?.data == payload)
            let download = try await HTTPCycle.get(sandbox.url("/download/1000000"), session: session)
            #expect(download.data.count == 1_000_000)
        }
    }
}
