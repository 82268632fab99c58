import Foundation
import JewzCookies
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// RFC 6265 storage and matching, in the jar alone.
@Suite struct CookieJarTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func jar(_ fields: [String], from url: String) throws -> HTTPCookieJar {
        let jar = try HTTPCookieJar()
        jar.store(fields, from: try #require(URL(string: url)), now: now)
        return jar
    }

    func field(_ jar: HTTPCookieJar, _ url: String) -> String? {
        jar.cookieField(for: URL(string: url)!, now: now)
    }

    @Test func hostOnlyAndDomainCookies() throws {
        let jar = try jar(["a=1", "b=2; Domain=example.com", "c=3; Domain=.EXAMPLE.com"], from: "http://www.example.com/")
        #expect(field(jar, "http://www.example.com/") == "a=1; b=2; c=3")
        #expect(field(jar, "http://api.example.com/") == "b=2; c=3")
        #expect(field(jar, "http://example.com/") == "b=2; c=3")
        #expect(field(jar, "http://notexample.com/") == nil)
        #expect(field(jar, "http://a.www.example.com/") == "b=2; c=3")
    }

    /// Found by HeaderFuzzer: a control character in a name or value was kept, and would go
    /// back in every Cookie field, which the transport refuses.
    @Test func aFieldWithAControlCharacterIsIgnoredWhole() throws {
        let jar = try jar(["\u{FFFD}\u{03}=", "a=1\u{7F}", "b=2; Path=/\u{01}", "tab=\tx", "ok=1"], from: "http://www.example.com/")
        #expect(field(jar, "http://www.example.com/") == "tab=x; ok=1")
    }

    @Test func aDomainTheHostIsNotUnderIsRefused() throws {
        let jar = try jar(["a=1; Domain=other.com", "b=2; Domain=ww.example.com"], from: "http://www.example.com/")
        #expect(jar.all.isEmpty)
    }

    @Test func noCookieForAPublicSuffix() throws {
        let jar = try jar(["a=1; Domain=co.uk", "b=2; Domain=example.co.uk", "c=3; Domain=com"], from: "http://www.example.co.uk/")
        #expect(jar.all.map(\.name) == ["b"])
        #expect(field(jar, "http://shop.example.co.uk/") == "b=2")
        #expect(field(jar, "http://evil.co.uk/") == nil)
        // A suffix may set a cookie for itself alone.
        let suffix = try self.jar(["d=4; Domain=github.io"], from: "https://github.io/")
        #expect(suffix.all.first?.isHostOnly == true)
        #expect(field(suffix, "https://user.github.io/") == nil)
    }

    @Test func pathsMatchByDirectory() throws {
        let jar = try jar(["a=1; Path=/docs", "b=2", "c=3; Path=relative"], from: "http://h.test/docs/page")
        #expect(field(jar, "http://h.test/docs") == "a=1; b=2; c=3")
        #expect(field(jar, "http://h.test/docs/x/y") == "a=1; b=2; c=3")
        #expect(field(jar, "http://h.test/docsets") == nil)
        #expect(field(jar, "http://h.test/") == nil)
        #expect(Set(jar.all.map(\.path)) == ["/docs"])
    }

    @Test func secureCookiesNeedHTTPS() throws {
        let plain = try jar(["a=1; Secure"], from: "http://h.test/")
        #expect(plain.all.isEmpty)
        let secure = try jar(["a=1; Secure; HttpOnly"], from: "https://h.test/")
        #expect(field(secure, "https://h.test/") == "a=1")
        #expect(field(secure, "http://h.test/") == nil)
        #expect(secure.all.first?.isHTTPOnly == true)
    }

    @Test func maxAgeWinsOverExpiresAndDeletes() throws {
        let jar = try jar(["a=1; Expires=Wed, 09 Jun 1999 10:18:14 GMT; Max-Age=60", "b=2; Max-Age=60; Expires=Wed, 09 Jun 1999 10:18:14 GMT"], from: "http://h.test/")
        #expect(field(jar, "http://h.test/") == "a=1; b=2")
        #expect(jar.cookieField(for: URL(string: "http://h.test/")!, now: now.addingTimeInterval(61)) == nil)
        jar.store(["a=gone; Max-Age=0", "b=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], from: URL(string: "http://h.test/")!, now: now)
        #expect(jar.all.isEmpty)
    }

    @Test func aNewValueReplacesTheOldAndKeepsItsAge() throws {
        let jar = try jar(["a=1"], from: "http://h.test/")
        jar.store(["b=2"], from: URL(string: "http://h.test/")!, now: now.addingTimeInterval(1))
        jar.store(["a=3"], from: URL(string: "http://h.test/")!, now: now.addingTimeInterval(10))
        #expect(field(jar, "http://h.test/") == "a=3; b=2")
    }

    @Test func malformedAndOversizedCookiesAreIgnored() throws {
        let big = String(repeating: "x", count: 5000)
        let jar = try jar(["novalue", "=x", "big=\(big)", "ok=1; Max-Age=soon; Expires=never"], from: "http://h.test/")
        #expect(jar.all.map(\.name) == ["ok"])
        #expect(jar.all.first?.expires == nil)
    }

    @Test func cookiesPerDomainAreBounded() throws {
        let jar = try jar((0..<80).map { "c\($0)=\($0)" }, from: "http://h.test/")
        #expect(jar.all.count == HTTPCookieJar.maximumCookiesPerDomain)
        #expect(jar.all.first?.name == "c30")
    }

    /// One field is one cookie: a comma belongs to the value (only FoundationNetworking joins
    /// fields with commas, and its transport splits them back, `SessionCookieTests`).
    @Test func oneFieldIsOneCookieCommasAndAll() throws {
        let jar = try jar(["a=1, b=2", "c=3; Expires=Wed, 09 Jun 2100 10:18:14 GMT"], from: "http://h.test/")
        #expect(field(jar, "http://h.test/") == "a=1, b=2; c=3")
        #expect(jar.all.last?.expires != nil)
    }

    /// RFC 6265 §5.1.4: without `Path`, a cookie's path is the request path up to its last `/`,
    /// the path as sent (a trailing slash counts); and a cookie goes to its own path exactly.
    @Test func theDefaultPathIsTheRequestPathsDirectory() throws {
        let jar = try jar(["a=1"], from: "http://h.test/docs/")
        #expect(jar.all.first?.path == "/docs")
        #expect(field(jar, "http://h.test/docs/") == "a=1")
        #expect(field(jar, "http://h.test/docs/page") == "a=1")
        #expect(field(jar, "http://h.test/other") == nil)
        let slashed = try self.jar(["b=2; Path=/dir/"], from: "http://h.test/")
        #expect(field(slashed, "http://h.test/dir/") == "b=2", "sent to its very path")
        #expect(field(slashed, "http://h.test/dir") == nil)
    }

    @Test func anIPAddressMatchesOnlyItself() throws {
        let jar = try jar(["a=1; Domain=0.0.1"], from: "http://127.0.0.1/")
        #expect(jar.all.isEmpty)
        let exact = try self.jar(["a=1"], from: "http://127.0.0.1/")
        #expect(field(exact, "http://127.0.0.1:8080/") == "a=1")
    }

    @Test func aJarWithAFileKeepsItsCookies() throws {
        let directory = try makeScratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cookies.json")
        let first = try HTTPCookieJar(persistingTo: file)
        first.store(["a=1; Max-Age=3600", "session=2"], from: URL(string: "http://h.test/")!)
        let second = try HTTPCookieJar(persistingTo: file)
        #expect(Set(second.all.map(\.name)) == ["a", "session"])
        second.removeAll()
        #expect(try HTTPCookieJar(persistingTo: file).all.isEmpty)
        try Data("not json".utf8).write(to: file)
        #expect(throws: (any Error).self) { try HTTPCookieJar(persistingTo: file) }
    }
}
