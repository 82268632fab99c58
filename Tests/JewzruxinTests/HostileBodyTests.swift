import Foundation
import JewzSandbox
import JewzTestSupport
import Jewzruxin
import Testing

/// Bodies a hostile server sends to the standard processors (#27, "hold these": XML and JSON
/// bombs, malformed multipart), played on the wire with the umbrella's registry: each ends in
/// the processor's typed error within bounded time, and the same session then completes a
/// normal request.
@Suite struct HostileBodyTests {
    struct Body: Sendable, CustomTestStringConvertible {
        let name: String
        let contentType: String
        let bytes: [UInt8]
        /// Whether the processor's own error is the one this body must give.
        let expected: @Sendable (any Error) -> Bool
        var testDescription: String { name }
    }

    static let bodies: [Body] = [
        Body(name: "billion laughs", contentType: "application/xml", bytes: Array(billionLaughs.utf8)) {
            $0 as? XMLError == .entityDeclarationsNotAllowed
        },
        Body(
            name: "external entity (XXE)", contentType: "text/xml",
            bytes: Array(#"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>"#.utf8)
        ) { $0 as? XMLError == .entityDeclarationsNotAllowed },
        Body(
            name: "XML nested 100,000 deep", contentType: "application/atom+xml",
            bytes: Array((String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)).utf8)
        ) {
            ($0 as? XMLError)?.code == .tooDeep
        },
        Body(
            name: "JSON nested 1,000,000 deep", contentType: "application/json",
            bytes: Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        ) {
            ($0 as? JSONError).map { $0.code == .tooDeep && $0.limit == 512 } ?? false
        },
        Body(
            name: "multipart headers past the limit", contentType: "multipart/mixed; boundary=b",
            bytes: Array(("--b\r\nX-Filler: " + String(repeating: "a", count: 20_000) + "\r\n\r\nx\r\n--b--\r\n").utf8)
        ) { $0 as? MultipartError == .headersTooLarge(partIndex: 0, limit: 16 << 10) },
        Body(
            name: "multipart with more parts than the limit", contentType: "multipart/form-data; boundary=b",
            bytes: Array((String(repeating: "--b\r\n\r\nx\r\n", count: 10_001) + "--b--\r\n").utf8)
        ) { $0 as? MultipartError == .tooManyParts(limit: 10_000) },
        Body(
            name: "multipart that never closes", contentType: "multipart/form-data; boundary=b",
            bytes: Array("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nand then nothing".utf8)
        ) { $0 as? MultipartError == .truncated(partIndex: 0) },
    ]

    @Test(arguments: bodies) func aHostileBodyIsTheProcessorsErrorAndTheSessionGoesOn(_ body: Body) async throws {
        let head = responseHead("HTTP/1.1 200 OK", ["Content-Type: \(body.contentType)", "Content-Length: \(body.bytes.count)"])
        try await withScriptedServer(registry: .standard(), { _ in [.send(Array(head.utf8) + body.bytes)] }) { server, session in
            let error = try await withTimeLimit(.seconds(60)) {
                await httpError { try await HTTPCycle.get(server.url("/hostile"), session: session) }
            }
            #expect(error?.code == .processor, "\(String(describing: error))")
            #expect(error.flatMap(\.underlying).map(body.expected) == true, "\(String(describing: error?.underlying))")
            // The body is kept as it came, for a caller that wants to look at it.
            #expect(error?.response?.data.count == body.bytes.count)
            try await expectSessionStillWorks(session)
        }
    }

    /// Ten levels of entities, each ten of the one before: 10⁹ "lol"s if expanded.
    static let billionLaughs: String = {
        var document = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">"#
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            document += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        return document + "]><lolz>&lol9;</lolz>"
    }()
}
