import Foundation
import JewzHTTPCore

// Where profiles come from: JSON, property lists (XML or binary), dictionaries, files found by
// service name, URLs — and OpenAPI documents (ServiceProfile+OpenAPI.swift).
extension ServiceProfile {
    /// The profile a dictionary describes (keys `BaseURL`, `Resources`…).
    ///
    /// - Throws: ``ServiceError/Code/invalidProfile`` with every problem.
    public init(dictionary: [String: Any]) throws(ServiceError) {
        var reader = ProfileReader()
        guard let profile = reader.read(dictionary) else { throw ServiceError.invalidProfile(reader.problems) }
        self = profile
    }

    /// The profile in a JSON document, a property list (XML or binary) or an OpenAPI document
    /// (JSON or YAML), told apart by their content.
    ///
    /// - Throws: ``ServiceError/Code/unreadableProfile`` for data that is none of them,
    ///   ``ServiceError/Code/invalidProfile`` with every problem.
    public init(data: Data) throws(ServiceError) {
        let (profile, problems) = try Self.read(data)
        guard let profile else { throw ServiceError.invalidProfile(problems) }
        self = profile
    }

    /// The profile in the file at `url`.
    ///
    /// - Throws: as ``init(data:)``; ``ServiceError/Code/unreadableProfile`` when the file
    ///   cannot be read.
    public init(contentsOf url: URL) throws(ServiceError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw ServiceError.unreadableProfile(url.path, error.localizedDescription) }
        try self.init(data: data)
    }

    /// The profile of the service called `name` in `directory`: `name.json`, else `name.plist`
    /// (else `name.yaml` or `name.yml`, an OpenAPI document) — `github` finds `github.json`.
    ///
    /// - Throws: ``ServiceError/Code/unreadableProfile`` when there is no such file.
    public init(named name: String, in directory: URL) throws(ServiceError) {
        for suffix in Self.suffixes {
            let file = directory.appendingPathComponent("\(name).\(suffix)")
            if FileManager.default.fileExists(atPath: file.path) {
                try self.init(contentsOf: file)
                return
            }
        }
        throw ServiceError.unreadableProfile("\"\(name)\" in \(directory.path)", "no \(name).json, \(name).plist or \(name).yaml there")
    }

    /// The profile of the service called `name` among `bundle`'s resources (`name.json`, else
    /// `.plist`, `.yaml`, `.yml`): a profile shipped with an app or a package's `Bundle.module`.
    ///
    /// - Throws: ``ServiceError/Code/unreadableProfile`` when the bundle has none.
    public init(named name: String, in bundle: Bundle) throws(ServiceError) {
        for suffix in Self.suffixes {
            if let file = bundle.url(forResource: name, withExtension: suffix) {
                try self.init(contentsOf: file)
                return
            }
        }
        throw ServiceError.unreadableProfile("\"\(name)\" in \(bundle.bundlePath)", "the bundle has no \(name).json, \(name).plist or \(name).yaml")
    }

    /// Fetches the profile at `url` with `session` and reads it.
    ///
    /// - Throws: what the request throws (`HTTPError`), and as ``init(data:)``.
    public static func fetch(from url: URL, session: HTTPSession = .default) async throws -> ServiceProfile {
        let request = HTTPRequest(url: url)
        return try ServiceProfile(data: try await session.send(request, options: HTTPRequestOptions(responseProcessors: [])).data)
    }

    /// The extensions a profile found by name may have, in the order they are tried.
    private static let suffixes = ["json", "plist", "yaml", "yml"]

    /// Every problem of the profile in `data`; empty for a valid profile.
    ///
    /// - Throws: ``ServiceError/Code/unreadableProfile`` for data that is no profile format.
    public static func problems(in data: Data) throws(ServiceError) -> [ProfileProblem] {
        try read(data).problems
    }

    /// Every problem of the profile `dictionary` describes; empty for a valid profile.
    public static func problems(in dictionary: [String: Any]) -> [ProfileProblem] {
        var reader = ProfileReader()
        _ = reader.read(dictionary)
        return reader.problems
    }

    /// The profile in `data`, or the problems that keep it from being one (an OpenAPI
    /// document's unsupported constructs do not keep it from being one).
    static func read(_ data: Data) throws(ServiceError) -> (profile: ServiceProfile?, problems: [ProfileProblem]) {
        let tree = try ProfileDocument.tree(of: data)
        if let document = tree as? [String: Any], document["openapi"] != nil || document["swagger"] != nil {
            var builder = OpenAPIProfileBuilder(document)
            return builder.build()
        }
        var reader = ProfileReader()
        let profile = reader.read(tree)
        return (profile, reader.problems)
    }
}
