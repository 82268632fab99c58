import Foundation
import JewzHTTPCore
import JewzURITemplate

/// A description of an HTTP API: a base URL, named environments, and its resources — each a
/// name, a URI template and a method — with headers, a timeout and processors service-wide or
/// per resource, read from JSON, property lists (XML or binary),
/// a dictionary, or an OpenAPI document. A profile value is always valid: every way to make
/// one checks it whole and throws ``ServiceError`` listing every problem.
///
/// ```json
/// {"BaseURL": "https://api.github.com", "Headers": {"Accept": "application/json"},
///  "ResponseProcessor": "json",
///  "Resources": [{"Name": "search", "URITemplate": "/search/repositories{?q,sort}"},
///                {"Name": "upload", "URITemplate": "/repos/{owner}/{repo}/assets", "Method": "POST",
///                 "RequestProcessor": "data"}]}
/// ```
public struct ServiceProfile: Sendable {
    /// What a profile says of its requests, service-wide or for one resource (where it goes
    /// over the service's): headers, a timeout, processors.
    public struct RequestSettings: Sendable {
        /// Header fields added to the requests.
        public let headers: HTTPHeaderFields
        /// The requests' timeout, if set.
        public let timeout: Duration?
        /// The processor that writes request bodies, if set.
        public let requestProcessor: ProcessorChoice?
        /// The processor that reads response bodies, if set.
        public let responseProcessor: ProcessorChoice?
    }

    /// One route of the service.
    public struct Resource: Sendable {
        /// The name the resource is called by.
        public let name: String
        /// The URI template that makes its URL, relative to the base URL or absolute.
        public let template: URITemplate
        /// The request method.
        public let method: HTTPMethod
        /// Headers, timeout and processors for this resource, over the service's.
        public let settings: RequestSettings

        /// A resource called `name`, at `template`, with its own settings over the service's.
        public init(
            name: String, template: URITemplate, method: HTTPMethod = .get, headers: HTTPHeaderFields = [:],
            timeout: Duration? = nil, requestProcessor: ProcessorChoice? = nil, responseProcessor: ProcessorChoice? = nil
        ) {
            self.name = name
            self.template = template
            self.method = method
            settings = RequestSettings(
                headers: headers, timeout: timeout, requestProcessor: requestProcessor, responseProcessor: responseProcessor)
        }

        /// Headers for this resource, added over the service's.
        public var headers: HTTPHeaderFields { settings.headers }
        /// The request's timeout, over the service's.
        public var timeout: Duration? { settings.timeout }
        /// The processor that writes this resource's request bodies, over the service's.
        public var requestProcessor: ProcessorChoice? { settings.requestProcessor }
        /// The processor that reads this resource's responses, over the service's.
        public var responseProcessor: ProcessorChoice? { settings.responseProcessor }
    }

    /// A processor named in a profile: by name (`json`, `form`, `xml`, `multipart`, `data`) or
    /// by content type, looked up in the session's ``/JewzHTTPCore/ProcessorRegistry`` when a cycle is made.
    public struct ProcessorChoice: Sendable, Hashable, CustomStringConvertible {
        /// The content type whose registered processor is used; `nil` for `data` (the body's
        /// bytes as they are).
        public let contentType: String?
        /// The name the profile used: `json`, or the content type.
        public let description: String

        /// JSON (`application/json`).
        public static let json = ProcessorChoice(contentType: "application/json", description: "json")
        /// A URL-encoded form (`application/x-www-form-urlencoded`).
        public static let form = ProcessorChoice(contentType: "application/x-www-form-urlencoded", description: "form")
        /// XML (`application/xml`).
        public static let xml = ProcessorChoice(contentType: "application/xml", description: "xml")
        /// A multipart form (`multipart/form-data`).
        public static let multipart = ProcessorChoice(contentType: "multipart/form-data", description: "multipart")
        /// The body's bytes as they are.
        public static let data = ProcessorChoice(contentType: nil, description: "data")

        /// The processor registered for `contentType`.
        public static func contentType(_ contentType: String) -> ProcessorChoice {
            ProcessorChoice(contentType: contentType, description: contentType)
        }

        static let named: [String: ProcessorChoice] = ["json": .json, "form": .form, "xml": .xml, "multipart": .multipart, "data": .data]
    }

    /// The URL the resources' templates are relative to; may be empty when they are absolute.
    public let baseURL: String
    /// Base URLs by environment name (`staging`, `production`, `local`…).
    public let environments: [String: String]
    /// Headers, timeout and processors for every request of the service.
    public let settings: RequestSettings
    /// Headers every request of the service sends.
    public var headers: HTTPHeaderFields { settings.headers }
    /// Every request's timeout, if set.
    public var timeout: Duration? { settings.timeout }
    /// The processor that writes request bodies, service-wide.
    public var requestProcessor: ProcessorChoice? { settings.requestProcessor }
    /// The processor that reads responses, service-wide.
    public var responseProcessor: ProcessorChoice? { settings.responseProcessor }
    /// The resources, in the profile's order.
    public let resources: [Resource]
    private let indexByName: [String: Int]

    /// A profile made in code.
    ///
    /// - Throws: ``ServiceError/Code/invalidProfile`` for duplicate names or URLs that do not parse.
    public init(
        baseURL: String = "", resources: [Resource], environments: [String: String] = [:], headers: HTTPHeaderFields = [:],
        timeout: Duration? = nil, requestProcessor: ProcessorChoice? = nil, responseProcessor: ProcessorChoice? = nil
    ) throws(ServiceError) {
        var problems: [ProfileProblem] = []
        var index: [String: Int] = [:]
        for (position, resource) in resources.enumerated() {
            if index[resource.name] != nil {
                problems.append(ProfileProblem(.duplicateName, at: "Resources[\(position)].Name", "\"\(resource.name)\" names an earlier resource too"))
            }
            index[resource.name] = index[resource.name] ?? position
        }
        for (path, url) in [("BaseURL", baseURL)] + environments.sorted(by: { $0.key < $1.key }).map({ ("Environments.\($0.key)", $0.value) }) {
            if let problem = Self.urlProblem(url, at: path) { problems.append(problem) }
        }
        guard problems.isEmpty else { throw ServiceError.invalidProfile(problems) }
        self.baseURL = baseURL
        self.resources = resources
        self.environments = environments
        settings = RequestSettings(headers: headers, timeout: timeout, requestProcessor: requestProcessor, responseProcessor: responseProcessor)
        indexByName = index
    }

    /// The resource called `name`, or `nil`.
    public func resource(named name: String) -> Resource? {
        indexByName[name].map { resources[$0] }
    }

    /// A problem with a base URL: empty is allowed (absolute templates), else http(s) with a host.
    static func urlProblem(_ text: String, at path: String) -> ProfileProblem? {
        guard !text.isEmpty else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased()), url.host?.isEmpty == false else {
            return ProfileProblem(.invalidValue, at: path, "\"\(text)\" is not an http or https URL with a host")
        }
        return nil
    }
}
