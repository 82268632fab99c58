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
