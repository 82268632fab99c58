import Foundation
import JewzMocking
import Testing

@testable import JewzHTTPCore

@Suite struct ParsedURLMemoTests {
    @Test func aStringHeldGivesTheURLFoundationMakesOfIt() throws {
        let recent = ParsedURLMemo()
        let text = "http://example.test:8080/a b/é?q=1#top"
        let first = try #require(recent.sendableURL(text))
        let again = try #require(recent.sendableURL(text))
        #expect(first == again)
        #expect(first == URL(string: text))
        #expect(first.absoluteString == "http://example.test:8080/a%20b/%C3%A9?q=1#top")
    }

    @Test func stringsThatAreNotSendableGiveNothingAndAreNotHeld() {
        let recent = ParsedURLMemo()
        for text in ["ftp://example.test/file", "http://", "/relative/path", "http://exa mple.test:port/"] {
            #expect(recent.sendableURL(text) == nil, "\(text)")
            #expect(recent.sendableURL(text) == nil, "\(text), asked again")
        }
    }

    @Test func stringsInTurnEachGiveTheirOwnURL() throws {
        let recent = ParsedURLMemo()
        // Equal lengths, differing in one byte: the comparison is of the bytes, not the lengths.
        let texts = (0..<24).map { "https://host\($0 % 5).test/item/\($0 % 10)?page=\($0 % 10)" }
        for _ in 0..<2 {
            for text in texts {
                let url = try #require(recent.sendableURL(text))
                #expect(url == URL(string: text), "\(text)")
            }
        }
    }

    @Test func cyclesMadeFromOneStringCarryEqualURLs() async throws {
        let session = HTTPSession(configuration: .init { $0.customTransport = MockTransport() })
        let first = try HTTPCycle("http://example.test/users?id=1", method: .get, session: session)
        let second = try HTTPCycle("http://example.test/users?id=1", method: .get, session: session)
        #expect(first.request.url == second.request.url)
        #expect(throws: HTTPError.self) { try HTTPCycle("mailto:someone@example.test", method: .get, session: session) }
        try await session.shutdown()
    }
}
