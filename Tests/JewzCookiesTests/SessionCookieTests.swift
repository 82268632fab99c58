import Foundation
import JewzCookies
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// A session's jar at work against real servers, on both transports.
@Suite struct SessionCookieTests {
    static func configuration(with jar: HTTPCookieJar?) -> HTTPSession.Configuration {
        var configuration = HTTPSession.Configuration()
        configuration.cookieJar = jar
        return configuration
    }

    @Test(arguments: TransportKind.allCases) func cookiesSetByAResponseGoWithTheNextRequest(transport: TransportKind) async throws {
        let jar = try HTTPCookieJar()
        try await withSandbox(configuration: Self.configuration(with: jar), transport: transport) { sandbox, session in
            try await HTTPCycle.get(sandbox.url("/echo"), parameters: ["header": ["Set-Cookie:a=1", "Set-Cookie:b=2; Path=/inspect"]], session: session)
            let response = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            #expect(try Inspection(response).values("Cookie") == ["b=2; a=1"])
        }
    }

    @Test(arguments: TransportKind.allCases) func cookiesSetOnARedirectAreSentToItsTarget(transport: TransportKind) async throws {
        try await withScriptedServer(configuration: Self.configuration(with: try HTTPCookieJar()), transport: transport, { request in
            if request.target == "/login" {
                return [.send(responseHead("HTTP/1.1 302 Found", ["Location: /home", "Set-Cookie: session=s1", "Content-Length: 0"]))]
            }
            let cookie = request.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("cookie:") } ?? "none"
            return [.send(responseHead("HTTP/1.1 200 OK", ["Content-Length: \(cookie.utf8.count)"]) + cookie)]
        }) { server, session in
            let response = try await HTTPCycle.get(server.url("/login"), session: session)
            #expect(response.text?.lowercased() == "cookie: session=s1")
        }
    }

    /// A comma belongs to the value: only FoundationNetworking, which joins repeated fields with
    /// commas, has its `Set-Cookie` split back (where `, name=` follows), and a value like
    /// `bar, baz=qux` is then read as two cookies, which nothing can tell apart.
    @Test(arguments: TransportKind.allCases) func aCommaInAValueStaysInIt(transport: TransportKind) async throws {
        let jar = try HTTPCookieJar()
        try await withSandbox(configuration: Self.configuration(with: jar), transport: transport) { sandbox, session in
            try await HTTPCycle.get(
                sandbox.url("/echo/"), parameters: ["header": ["Set-Cookie:foo=bar, baz", "Set-Cookie:two=2; Expires=Wed, 09 Jun 2100 10:18:14 GMT"]],
                session: session)
            #expect(jar.all.map { "\($0.name)=\($0.value)" } == ["foo=bar, baz", "two=2"])
            if transport == .asyncHTTPClient {
                try await HTTPCycle.get(sandbox.url("/echo/"), parameters: ["header": "Set-Cookie:three=a, b=c"], session: session)
                #expect(jar.all.map(\.name) == ["foo", "two", "three"], "one field, one cookie")
            }
        }
    }

    @Test func withoutAJarNothingIsKept() async throws {
        try await withSandbox { sandbox, session in
            try await HTTPCycle.get(sandbox.url("/echo"), parameters: ["header": "Set-Cookie:a=1"], session: session)
            let response = try await HTTPCycle.get(sandbox.url("/inspect"), session: session)
            #expect(try Inspection(response).values("Cookie").isEmpty)
        }
    }
}
