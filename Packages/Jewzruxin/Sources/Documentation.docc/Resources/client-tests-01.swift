import Foundation
import Jewzruxin
import Testing

/// One item of the catalog, as the API sends it.
struct Item: Codable, Equatable {
    let id: Int
    let title: String
}

/// The catalog API's client: one session, configured once.
final class CatalogClient: Sendable {
    let session: HTTPSession

    init(baseURL: URL, signIn: @escaping TokenAuthenticator.Refresh, transport: (any HTTPTransport)? = nil) {
        var configuration = HTTPSession.Configuration()
        configuration.baseURL = baseURL
        configuration.authentications = [TokenAuthenticator(refresh: signIn)]
        configuration.cache = HTTPCache(store: MemoryCacheStore())
        configuration.customTransport = transport
        session = HTTPSession(configuration: configuration)
    }

    func items(page: Int = 1) async throws -> [Item] {
        try await HTTPCycle.get("/items", parameters: ["page": "\(page)"], session: session).decode([Item].self)
    }
}

@Suite struct CatalogClientTests {
    @Test func itemsAreDecodedAndSentWithTheToken() async throws {
        let mock = MockTransport()
        mock.stub(
            .get, path: "/v1/items", headers: ["Content-Type": "application/json", "Cache-Control": "max-age=60"],
            body: try JSONEncoder().encode([Item(id: 1, title: "Hello")]))
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
