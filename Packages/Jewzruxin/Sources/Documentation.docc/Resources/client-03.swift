import Jewzruxin

/// One item of the catalog, as the API sends it.
struct Item: Decodable, Equatable {
    let id: Int
    let title: String
}

/// The catalog API's client: one session, configured once.
final class CatalogClient: Sendable {
    let session: HTTPSession

    /// - Parameter signIn: fetches a fresh token; called before the first request and again
    ///   when the API answers 401, once for all the requests waiting.
    init(baseURL: URL, signIn: @escaping TokenAuthenticator.Refresh) {
        var configuration = HTTPSession.Configuration()
        configuration.baseURL = baseURL
        // Tokens go only to the base URL's origin.
        configuration.authentications = [TokenAuthenticator(refresh: signIn)]
        session = HTTPSession(configuration: configuration)
    }

    /// The items on one page of the catalog.
    func items(page: Int = 1) async throws -> [Item] {
        try await HTTPCycle.get("/items", parameters: ["page": "\(page)"], decoding: [Item].self, session: session)
    }
}
