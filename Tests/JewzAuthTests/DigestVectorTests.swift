import Foundation
@testable import JewzAuth
import Testing

/// RFC 7616 §3.9.1: the responses for Mufasa / "Circle of Life".
@Suite struct DigestVectorTests {
    @Test(arguments: [
        ("MD5", "8ca523f5e9506fed4657c9700eebdbec"),
        ("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
    ])
    func rfc7616Vectors(algorithm: String, expected: String) throws {
        let response = DigestAuthentication.response(
            algorithm: try #require(DigestAlgorithm(algorithm)), username: "Mufasa", realm: "http-auth@example.org",
            password: "Circle of Life", method: "GET", uri: "/dir/index.html",
            nonce: "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc: "00000001",
            cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop: "auth", bodyHash: nil)
        #expect(response == expected)
    }

    @Test func sha512_256IsNotOffered() {
        #expect(DigestAlgorithm("SHA-512-256") == nil)
    }
}

/// The request target and the protection scope are read off the URL's text.
@Suite struct URLTextTests {
    @Test(arguments: [
        ("http://h:8080/dir/index.html?q=1#frag", "/dir/index.html?q=1"), ("http://h", "/"), ("http://h?x=1", "/?x=1"),
        ("https://u:p@h/a%20b/", "/a%20b/"),
    ])
    func targetIsPathAndQuery(url: String, target: String) throws {
        #expect(DigestAuthentication.target(of: try #require(URL(string: url))) == target)
    }

    @Test func aScopeCoversItsDirectoryOnItsOriginOnly() throws {
        let scope = ProtectionScope(try #require(URL(string: "http://h:8080/api/v1/users?page=2")))
        for inside in ["http://h:8080/api/v1/users", "http://h:8080/api/v1/", "http://h:8080/api/v1/x/y?z"] {
            #expect(scope.contains(try #require(URL(string: inside))), "\(inside)")
        }
        for outside in ["http://h:8080/api/", "https://h:8080/api/v1/x", "http://h:8081/api/v1/x", "http://h.evil:8080/api/v1/x",
                        "http://h:8080@evil/api/v1/x"] {
            #expect(!scope.contains(try #require(URL(string: outside))), "\(outside)")
        }
    }
}
