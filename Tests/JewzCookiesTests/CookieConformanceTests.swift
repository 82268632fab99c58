import Foundation
import JewzCookies
import JewzHTTPCore
import JewzMocking
import Testing

/// One case of the IETF http-state working group's cookie tests (`Resources/http-state`).
struct CookieCase: Decodable, Sendable, CustomTestStringConvertible {
    struct Cookie: Decodable, Sendable, Equatable, CustomStringConvertible {
        var name: String
        var value: String
        var description: String { "\(name)=\(value)" }
    }

    var test: String
    var received: [String]
    var sentTo: String?
    var sent: [Cookie]

    enum CodingKeys: String, CodingKey {
        case test, received, sent
        case sentTo = "sent-to"
    }

    var testDescription: String { test }

    /// The suite's cases but its `DISABLED_` ones: CHROMIUM0020 and 0022 ask for a field of
    /// 4,000 bytes, and one with a NUL, to be cut rather than refused; CHROMIUM0023 for
    /// percent-decoded `Path` (RFC 6265 compares paths as sent); PATH0029 for a request path
    /// matched after percent-decoding (`f%6Fo` against `foo`), which RFC 6265 does not do.
    static let enabled: [CookieCase] = {
        let file = Bundle.module.resourceURL?.appendingPathComponent("http-state/parser.json")
        guard let file, let data = try? Data(contentsOf: file), let cases = try? JSONDecoder().decode([CookieCase].self, from: data) else {
            return []
        }
        return cases.filter { !$0.test.hasPrefix("DISABLED_") }
    }()
}

/// RFC 6265 as the http-state suite checks it, through a session as a user's code runs it: each
/// case's `Set-Cookie` fields come from http://home.example.org:8888/cookie-parser?N, and the
/// `Cookie` field the session then sends to the case's result URL must hold its cookies, in
/// order. The server cannot be real (its names are the suite's), so a `MockTransport` answers;
/// the jar, the cookie stage and the pipeline are the session's own.
@Suite struct CookieConformanceTests {
    @Test func theSuiteIsPresent() {
        #expect(CookieCase.enabled.count == 218)
    }

    @Test(arguments: CookieCase.enabled)
    func suiteCase(_ testCase: CookieCase) async throws {
        let server = try #require(URL(string: "http://home.example.org:8888/cookie-parser?\(testCase.test)"))
        let result = try #require(URL(
            string: testCase.sentTo ?? "/cookie-parser-result?\(testCase.test)", relativeTo: server)?.absoluteURL)
        let mock = MockTransport()
        let fields = HTTPHeaderFields(testCase.received.map { ("Set-Cookie", $0) })
        mock.stub(where: { $0.url.path == "/cookie-parser" }) { _ in .response(status: 200, headers: fields, body: Data()) }
        mock.stub(where: { $0.url.path != "/cookie-parser" }) { _ in .response(status: 204, headers: [:], body: Data()) }
        var configuration = HTTPSession.Configuration()
        // The suite was written in 2011: its "future" dates (Expires=… 2019) are checked from then.
        configuration.cookieJar = try HTTPCookieJar(now: { Date(timeIntervalSince1970: 1_300_000_000) })
        configuration.customTransport = mock
        let session = HTTPSession(configuration: configuration)
        _ = try await session.send(HTTPRequest(url: server))
        _ = try await session.send(HTTPRequest(url: result))
        let sent = (mock.requests.last?.headers["Cookie"] ?? "").split(separator: ";").map { field in
            let pair = field.drop { $0 == " " }
            let name = pair.prefix { $0 != "=" }
            return CookieCase.Cookie(name: String(name), value: String(pair.dropFirst(name.count + 1)))
        }
        #expect(sent == testCase.sent, "received \(testCase.received), sent to \(result.absoluteString)")
    }
}
