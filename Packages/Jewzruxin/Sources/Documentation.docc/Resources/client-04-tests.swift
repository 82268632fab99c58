import Foundation
import Jewzruxin
import Testing

@Suite struct CatalogClientTests {
    @Test func itemsAreDecodedAndSentWithTheToken() async throws {
        let mock = MockTransport()
        mock.stub(
            .get, path: "/v1/items", headers: ["Content-Type": "application/json", "Cache-Control": "max-age=60"],
            body: Data(#"[{"id": 1, "title": "Hello"}]"#.utf8))
        let client = CatalogClient(
            baseURL: try #require(URL(string: "https://api.example.com/v1")),
            signIn: { TokenAuthenticator.Credential(token: "t0ken") }, transport: mock)

        #expect(try await client.items() == [Item(id: 1, title: "Hello")])
        #expect(mock.requests.first?.headers["Authorization"] == "Bearer t0ken")

        // The second read is the cache's: the API sees one request.
        #expect(try await client.items() == [Item(id: 1, title: "Hello")])
        #expect(mock.requests.count == 1)
        try await client.session.shutdown()
    }
}
