import Foundation
import JewzSandbox
import JewzTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes to the server and reads until it closes the connection (or 5 s pass).
@Sendable func rawExchange(port: Int, _ request: String) throws -> String {
    let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(socketDescriptor >= 0)
    defer { close(socketDescriptor) }
    // Catches a server that never answers; a loaded machine running the whole suite was seen
    // to take over 5 s for an answer.
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    try #require(connected == 0)
    let bytes = Array(request.utf8)
    try #require(send(socketDescriptor, bytes, bytes.count, 0) == bytes.count)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = recv(socketDescriptor, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received.append(contentsOf: buffer[..<count])
    }
    return String(decoding: received, as: UTF8.self)
}

@Suite struct SandboxTests {
    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
        "GET /hello HTTP/1.1\r\nBad Header Without Colon\r\n\r\n",
        "\u{0}\u{1}\u{2}\r\n\r\n",
    ])
    func malformedRequestsGet400AndTheServerKeepsServing(_ request: String) async throws {
        let sandbox = try await Sandbox.start()
        let answer = try await runBlocking { try rawExchange(port: sandbox.port, request) }
        #expect(answer.hasPrefix("HTTP/1.1 400"))
        let next = try await runBlocking { try rawExchange(port: sandbox.port, "GET /hello/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") }
        #expect(next.hasPrefix("HTTP/1.1 200"))
        #expect(next.hasSuffix("Hello World"))
        try await sandbox.shutdown()
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let sandbox = try await Sandbox.start()
        let answer = try await runBlocking { try rawExchange(
            port: sandbox.port,
            "GET /echo/?content=one&delay=0.1 HTTP/1.1\r\nHost: x\r\n\r\nGET /echo/?content=two HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") }
        let one = try #require(answer.range(of: "one"))
        let two = try #require(answer.range(of: "two"))
        #expect(one.lowerBound < two.lowerBound)
        try await sandbox.shutdown()
    }

    @Test func headRequestsGetHeadersOnly() async throws {
        let sandbox = try await Sandbox.start()
        let answer = try await runBlocking { try rawExchange(port: sandbox.port, "HEAD /hello/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") }
        #expect(answer.contains("Content-Length: 11"))
        #expect(!answer.contains("Hello World"))
        try await sandbox.shutdown()
    }

    private func respond(_ uri: String, method: String = "GET", body: String = "", headers: [(name: String, value: String)] = []) -> SandboxResponse {
        SandboxRouter().respond(to: SandboxRequest(method: method, uri: uri, headers: headers, body: Data(body.utf8)))
    }

    @Test(arguments: [
        "/status/99", "/status/abc", "/bytes/-1", "/bytes/999999999999", "/echo/?code=x", "/echo/?code=700",
        "/echo/?encoding=klingon", "/echo/?delay=-1", "/echo/?delay=301", "/echo/?header=nocolon",
        "/echo/?content=%E2%82%AC&encoding=iso-8859-1", "/counter?fail=1", "/counter?key=k&status=200",
        "/drop/1", "/redirect/99", "/echo/?code=",
    ])
    func badParametersGet400(_ uri: String) {
        #expect(respond(uri).status == 400)
    }

    @Test func itemsAreAJSONListOfTheRequestedLength() throws {
        let response = respond("/items/27")
        #expect(response.status == 200)
        #expect(response.headers.contains { $0.name == "Content-Type" && $0.value == "application/json" })
        let items = try #require(try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]])
        #expect(items.count == 27)
        #expect(items.last?["name"] as? String == "item 26")
        #expect(items.last?["price"] as? Double == 26.25)
        #expect(respond("/items/0").body == Data("[]".utf8))
        #expect(respond("/items/-1").status == 400)
        #expect(respond("/items/100001").status == 400)
    }

    @Test func unknownPathsGet404() {
        #expect(respond("/nowhere").status == 404)
        #expect(respond("/hello/extra").status == 404)
    }

    @Test func echoHonoursEveryParameter() {
        let response = respond("/echo/?code=201&content=caf%C3%A9&encoding=iso-8859-1&header=X-A:%201&header=X-B:2&delay=0.5")
        #expect(response.status == 201)
        #expect(response.body == Data([0x63, 0x61, 0x66, 0xE9]))
        #expect(response.headers.map(\.name) == ["X-A", "X-B", "Content-Type"])
        #expect(response.headers.first?.value == "1")
        #expect(response.headers.last?.value == "text/plain; charset=iso-8859-1")
        #expect(response.delay == .milliseconds(500))
    }

    @Test func theCounterFailsNTimesPerKeyThenSucceeds() {
        let router = SandboxRouter()
        let request = { (key: String) in
            router.respond(to: SandboxRequest(method: "GET", uri: "/counter?key=\(key)&fail=2&retry-after=1", headers: [], body: Data()))
        }
        #expect(request("a").status == 503)
        #expect(request("a").headers.contains { $0.name == "Retry-After" && $0.value == "1" })
        #expect(request("b").status == 503)
        #expect(request("a").status == 200)
    }

    @Test func basicAuthNeedsTheSeedCredentials() {
        #expect(respond("/hello_with_basic_auth").status == 401)
        let good = respond("/hello_with_basic_auth", headers: [("authorization", "Basic dGVzdDoxMjM0NQ==")])
        #expect(good.status == 200)
        #expect(respond("/hello_with_basic_auth", headers: [("Authorization", "Basic eDp5")]).status == 401)
    }

    @Test func dumpUploadEchoesBodyAndType() {
        let response = respond("/dumpupload/", method: "POST", body: "{\"a\":1}", headers: [("Content-Type", "application/json")])
        #expect(response.body == Data("{\"a\":1}".utf8))
        #expect(response.headers.first?.value == "application/json")
    }
}
