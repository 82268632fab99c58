import Foundation
import JewzHTTPCore
import JewzURITemplate

/// Turns an OpenAPI 3.0 or 3.1 document (parsed into a tree) into a profile: each operation
/// a resource named by its `operationId`, its path and query parameters an RFC 6570 template
/// whose operators follow their `style` and `explode`, the `servers` a base URL and named
/// environments, the request body's first media type the request processor. What a profile
/// cannot express is listed as ``ProfileProblem/Kind/unsupported`` and left out, never
/// dropped silently.
///
/// A walk over the parsed tree rather than a full OpenAPI model (OpenAPIKit): a profile needs
/// servers, paths, operations, parameters and body media types, and this reads exactly those.
struct OpenAPIProfileBuilder {
    private static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    private let document: [String: Any]
    private var problems: [ProfileProblem] = []
    private var blocking = false

    init(_ document: [String: Any]) {
        self.document = document
    }

    mutating func build() -> (profile: ServiceProfile?, problems: [ProfileProblem]) {
        let version = document["openapi"] as? String ?? ""
        guard version.hasPrefix("3.0") || version.hasPrefix("3.1") else {
            let found = document["swagger"].map { "Swagger \($0)" } ?? "\"\(version)\""
            fail(.unsupported, at: "openapi", "\(found) is not OpenAPI 3.0 or 3.1; convert it first")
            return (nil, problems)
        }
        let (baseURL, prefix, environments) = servers()
        var resources: [ServiceProfile.Resource] = []
        var names: Set<String> = []
        let paths = document["paths"] as? [String: Any] ?? [:]
        if document["paths"] == nil { note(.missingKey, at: "paths", "the document has no paths: the profile has no resources") }
        for path in paths.keys.sorted() {
            guard let item = paths[path] as? [String: Any] else {
                fail(.wrongType, at: "paths.\(path)", "a path item is a dictionary")
                continue
            }
            let shared = item["parameters"] as? [Any] ?? []
            for method in Self.methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                let at = "paths.\(path).\(method)"
                let name = operation["operationId"] as? String ?? "\(method.uppercased()) \(path)"
                guard names.insert(name).inserted else {
                    fail(.duplicateName, at: at + ".operationId", "\"\(name)\" names another operation too")
                    continue
                }
                let parameters = self.parameters(shared + (operation["parameters"] as? [Any] ?? []), at: at)
                guard let template = template(prefix + path, parameters: parameters, at: at) else { continue }
                resources.append(ServiceProfile.Resource(
                    name: name, template: template, method: HTTPMethod(rawValue: method.uppercased()),
                    requestProcessor: requestProcessor(operation["requestBody"], at: at + ".requestBody")))
            }
        }
        guard !blocking else { return (nil, problems) }
        do {
            return (try ServiceProfile(baseURL: baseURL, resources: resources, environments: environments), problems)
        } catch {
            return (nil, problems + error.problems)
        }
    }

    // MARK: Servers

    /// The first server's URL as the base URL, every server as an environment (named by
    /// `x-environment`, else its description, else `server1`…), and the path of a relative
    /// server URL, which goes in front of every template instead.
    private mutating func servers() -> (baseURL: String, prefix: String, environments: [String: String]) {
        let servers = document["servers"] as? [Any] ?? []
        var environments: [String: String] = [:]
        var first: String?
        for (index, entry) in servers.enumerated() {
            guard let server = entry as? [String: Any], var url = server["url"] as? String else {
                note(.wrongType, at: "servers[\(index)]", "a server needs a url string")
                continue
            }
            for (name, variable) in server["variables"] as? [String: Any] ?? [:] {
                guard let value = (variable as? [String: Any])?["default"] as? String else { continue }
                url = url.replacingOccurrences(of: "{\(name)}", with: value)
            }
            if url.contains("{") { note(.unsupported, at: "servers[\(index)].url", "a server variable without a default is left as it is: \(url)") }
            if url.hasSuffix("/") { url.removeLast() }
            first = first ?? url
            let label = (server["x-environment"] as? String) ?? (server["description"] as? String).map(Self.slug) ?? "server\(index + 1)"
            if !url.hasPrefix("/"), !label.isEmpty { environments[label] = url }
        }
        guard let first else { return ("", "", environments) }
        return first.hasPrefix("/") ? ("", first, environments) : (first, "", environments)
    }

    /// `"Staging server"` → `staging-server`.
    private static func slug(_ text: String) -> String {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
    }

    // MARK: Parameters

    private struct Parameter {
        let name: String
        let location: String
        let style: String
        let explode: Bool
        let allowsReserved: Bool
    }

    private mutating func parameters(_ list: [Any], at path: String) -> [Parameter] {
        var result: [Parameter] = []
        for (index, entry) in list.enumerated() {
            let at = "\(path).parameters[\(index)]"
            guard let parameter = resolve(entry, at: at) else { continue }
            guard let name = parameter["name"] as? String, !name.isEmpty, let location = parameter["in"] as? String else {
                note(.wrongType, at: at, "a parameter needs a name and an in")
                continue
            }
            let style = parameter["style"] as? String ?? (location == "query" || location == "cookie" ? "form" : "simple")
            // Explode changes nothing for a scalar: its template reads better without the `*`.
            let scalarTypes: Set<String> = ["string", "integer", "number", "boolean"]
            let isScalar = ((parameter["schema"] as? [String: Any])?["type"] as? String).map(scalarTypes.contains) ?? false
            let explode = !isScalar && parameter["explode"] as? Bool ?? (style == "form")
            // An operation's parameter replaces the path item's of the same name and location.
            result.removeAll { $0.name == name && $0.location == location }
            result.append(Parameter(
                name: name, location: location, style: style, explode: explode, allowsReserved: parameter["allowReserved"] as? Bool ?? false))
        }
        return result
    }

    /// The parameter itself, or the one a `#/components/parameters/…` reference names; `nil`
    /// (its problem noted) for anything else.
    private mutating func resolve(_ entry: Any, at path: String) -> [String: Any]? {
        guard let object = entry as? [String: Any] else {
            note(.wrongType, at: path, "a parameter is a dictionary, not \(ProfileReader.kind(of: entry))")
            return nil
        }
        guard let reference = object["$ref"] as? String else { return object }
        let prefix = "#/components/parameters/"
        guard reference.hasPrefix(prefix),
            let target = ((document["components"] as? [String: Any])?["parameters"] as? [String: Any])?[String(reference.dropFirst(prefix.count))]
                as? [String: Any]
        else {
            note(.unsupported, at: path, "the reference \(reference) is not to #/components/parameters in this document")
            return nil
        }
        return target
    }

    /// The RFC 6570 template of an operation: its path with each path parameter's operator
    /// (`simple` → `{x}`, `label` → `{.x}`, `matrix` → `{;x}`, `*` when exploded), then one
    /// query expression of every `form` query parameter (`{?a,b*}`).
    private mutating func template(_ path: String, parameters: [Parameter], at location: String) -> URITemplate? {
        var text = path
        var query: [String] = []
        for parameter in parameters {
            // `page-size` is spelled `page%2Dsize`; the service finds the value given as `page-size`.
            let spec = URITemplate.variableName(for: parameter.name) + (parameter.explode ? "*" : "")
            let placeholder = "{\(parameter.name)}"
            switch (parameter.location, parameter.style) {
            case ("path", "simple"): text = text.replacingOccurrences(of: placeholder, with: "{\(spec)}")
            case ("path", "label"): text = text.replacingOccurrences(of: placeholder, with: "{.\(spec)}")
            case ("path", "matrix"): text = text.replacingOccurrences(of: placeholder, with: "{;\(spec)}")
            case ("query", "form"):
                query.append(spec)
                if parameter.allowsReserved {
                    note(.unsupported, at: location, "query parameter \"\(parameter.name)\" allows reserved characters; they are percent-encoded")
                }
            case ("header", _), ("cookie", _):
                note(.unsupported, at: location, "\(parameter.location) parameter \"\(parameter.name)\" is not part of the URL: set it on the cycle's request")
            default:
                note(.unsupported, at: location, "\(parameter.location) parameter \"\(parameter.name)\" in style \(parameter.style) has no RFC 6570 form; it is left out")
            }
        }
        if !query.isEmpty { text += "{?\(query.joined(separator: ","))}" }
        do {
            return try URITemplate(text)
        } catch {
            note(.invalidTemplate, at: location, "\"\(text)\" does not parse (\(error)); the operation is left out")
            return nil
        }
    }

    /// The processor for the request body's media type: JSON, form, multipart, XML or bytes
    /// when offered (in that order), else the first by name.
    private mutating func requestProcessor(_ body: Any?, at path: String) -> ServiceProfile.ProcessorChoice? {
        guard let body = body as? [String: Any] else { return nil }
        if body["$ref"] != nil {
            note(.unsupported, at: path, "a referenced request body: its media type is not read; the registry decides")
            return nil
        }
        let preferred = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data", "application/xml", "application/octet-stream"]
        guard let content = body["content"] as? [String: Any],
            let type = preferred.first(where: { content[$0] != nil }) ?? content.keys.sorted().first
        else { return nil }
        switch MediaType(type)?.essence {
        case "application/json"?: return .json
        case "application/x-www-form-urlencoded"?: return .form
        case "multipart/form-data"?: return .multipart
        case "application/xml"?, "text/xml"?: return .xml
        case "application/octet-stream"?: return .data
        case let essence?: return .contentType(essence)
        case nil:
            note(.unsupported, at: path, "\"\(type)\" is not a media type the registry can look up")
            return nil
        }
    }

    // MARK: Problems

    /// A problem the profile can live with: the construct is left out.
    private mutating func note(_ kind: ProfileProblem.Kind, at path: String, _ message: String) {
        problems.append(ProfileProblem(kind, at: path, message))
    }

    /// A problem that keeps the document from being a profile.
    private mutating func fail(_ kind: ProfileProblem.Kind, at path: String, _ message: String) {
        note(kind, at: path, message)
        blocking = true
    }
}
