import Jewzruxin

/// One item of the catalog, as the API sends it.
struct Item: Decodable, Equatable {
    let id: Int
    let title: String
}

/// The catalog API's client: one session, configured once.
final class CatalogClient: Sendable {
    let session: HTTPSession

    /// - Parameters:
    ///   - signIn: fetches a fresh token; called before the first request and again when the
    ///     API answers 401, once for all the requests waiting.
    ///   - transport: a transport of the caller's: a test's `MockTransport`; `nil` for the network.
    init(baseURL: URL, signIn: @escaping TokenAuthenticator.Refresh, transport: (any HTTPTransport)? = nil) {
        var configuration = HTTPSession.Configuration()
        configuration.baseURL = baseURL
        configuration.authentications = [TokenAuthenticator(refresh: signIn)]
        // Responses kept as RFC 9111 allows: a fresh one is answered without the network.
        configuration.cache = HTTPCache(store: MemoryCacheStore())
        configuration.customTransport = transport
        session = HTTPSession(configuration: configuration)
    }

    /// The items on one page of the catalog.
    func items(page: Int = 1) async throws -> [Item] {
        try await HTTPCycle.get("/items", parameters: ["page": "\(page)"], decoding: [Item].self, session: session)
    }
}
