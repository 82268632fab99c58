import Jewzruxin

/// The catalog API's client: one session, configured once.
final class CatalogClient: Sendable {
    let session: HTTPSession

    init(baseURL: URL) {
        var configuration = HTTPSession.Configuration()
        configuration.baseURL = baseURL
        session = HTTPSession(configuration: configuration)
    }
}
