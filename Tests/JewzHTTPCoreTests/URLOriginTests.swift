import Foundation
@testable import JewzHTTPCore
import Testing

/// `URL.origin` reads a plain URL's text and agrees with Foundation's parts on every URL.
@Suite struct URLOriginTests {
    @Test(arguments: [
        ("http://127.0.0.1:8080/hello", "http://127.0.0.1:8080"),
        ("https://api.example.com/v1?q=1", "https://api.example.com:443"),
        ("http://example.com", "http://example.com:80"),
        ("http://example.com?x", "http://example.com:80"),
        ("http://example.com#top", "http://example.com:80"),
        ("https://example.com:08443/", "https://example.com:8443"),
        ("ws://chat.example.com/socket", "ws://chat.example.com:80"),
        // Foundation keeps an international name in its ASCII form (IDNA) in the text too.
        ("http://exämple.com/", "http://xn--exmple-cua.com:80"),
    ])
    func aPlainURLIsReadOffItsText(text: String, origin: String) throws {
        let url = try #require(URL(string: text))
        #expect(url.plainOrigin == origin)
        #expect(url.partsOrigin == origin)
    }

    @Test(arguments: [
        "HTTP://Example.COM/", "https://user:secret@example.com/", "http://[::1]:8080/", "http://%65xample.com/",
        "http://example.com:/", "http://example.com:123456/", "http+unix://%2Ftmp%2Fsock/path",
    ])
    func anythingElseGoesThroughFoundationsParts(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(url.plainOrigin == nil, "\(text)")
        #expect(url.origin == url.partsOrigin)
    }
}
