import Jewzruxin

/// One item of the catalog, as the API sends it.
struct Item: Decodable, Equatable {
    let id: Int
    let title: String
}

/// The catalog API's client: one session, configured once.
final class CatalogClient: Sendable {
    let session: HTTPSession

    init(baseURL: URL) {
        var configuration = HTTPSession.Configuration()
        configuration.baseURL = baseURL
        session = HTTPSession(configuration: configuration)
    }

    /// The items on one page of the catalog.
    func items(page: Int = 1) async throws -> [Item] {
        try await HTTPCycle.get("/items", parameters: ["page": "\(page)"], decoding: [Item].self, session: session)
    }
}
