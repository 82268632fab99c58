import Foundation
import JewzHTTPCore
import JewzURITemplate

/// An endpoint of a service as a type, checked by the compiler (Moya's `TargetType` is the
/// anchor): which resource it calls, with which values and body, and what its response
/// decodes to. An enum of cases is the usual shape; the profile still holds the routes.
///
/// ```swift
/// let github = HTTPService(profile: try ServiceProfile(named: "github", in: URL(filePath: "Profiles")))
/// enum GitHubAPI: ServiceEndpoint {
///     typealias Response = SearchResults
///     case search(query: String)
///     var resourceName: String { "search" }
///     var values: [String: URITemplate.Value] {
///         switch self { case .search(let query): ["q": .string(query)] }
///     }
/// }
/// let results = try await github.send(GitHubAPI.search(query: "jewzruxin"))
/// ```
public protocol ServiceEndpoint: Sendable {
    /// What the response's body decodes to: a `Decodable` read as JSON, or `Data` as it came.
    associatedtype Response: Decodable & Sendable
    /// The profile resource it calls.
    var resourceName: String { get }
    /// The values its resource's template expands with; none unless given.
    var values: [String: URITemplate.Value] { get }
    /// The request's object, for the request processors; none unless given.
    var body: (any Sendable)? { get }
}

extension ServiceEndpoint {
    public var values: [String: URITemplate.Value] { [:] }
    public var body: (any Sendable)? { nil }
}

extension HTTPService {
    /// Calls `endpoint` and decodes its response's body.
    ///
    /// - Throws: ``ServiceError`` when the cycle cannot be made; `HTTPError` as the cycle
    ///   throws (a failing status included), and `HTTPError.processor` with the decoder's
    ///   `DecodingError` when the body does not decode to `Endpoint.Response`.
    public func send<Endpoint: ServiceEndpoint>(
        _ endpoint: Endpoint, decoder: JSONDecoder = JSONDecoder()
    ) async throws -> Endpoint.Response {
        let cycle = try makeCycle(endpoint.resourceName, values: endpoint.values, object: endpoint.body)
        // Decoded here from the bytes: a response processor's tree would be built for nothing.
        cycle.options.responseProcessors = []
        try await cycle.start()
        let data = cycle.response?.data ?? Data()
        if let bytes = data as? Endpoint.Response { return bytes }
        do {
            return try decoder.decode(Endpoint.Response.self, from: data)
        } catch {
            throw HTTPError.processor(name: "JSONDecoder(\(Endpoint.Response.self))", underlying: error, response: cycle.response)
        }
    }

    /// The names among `endpoints`' resources that the profile lacks: check a set of
    /// endpoints against the profile once, when the service is made.
    public func missingResources<Endpoint: ServiceEndpoint>(of endpoints: some Sequence<Endpoint>) -> [String] {
        let profile = profile
        var missing: [String] = []
        for endpoint in endpoints where profile.resource(named: endpoint.resourceName) == nil && !missing.contains(endpoint.resourceName) {
            missing.append(endpoint.resourceName)
        }
        return missing
    }
}
