import Foundation
import JewzHTTPCore
import JewzURITemplate

/// Reads a profile from the tree a JSON or property-list parser gives (or a dictionary made in
/// code), noting every problem on the way rather than stopping at the first, with where it is.
struct ProfileReader {
    private static let serviceKeys: Set<String> = [
        "BaseURL", "Resources", "Environments", "Headers", "Timeout", "RequestProcessor", "ResponseProcessor",
    ]
    private static let resourceKeys: Set<String> = [
        "Name", "URITemplate", "Method", "Headers", "Timeout", "RequestProcessor", "ResponseProcessor",
    ]
    /// RFC 9110's methods, PATCH, QUERY and WebDAV's: a method outside them is most likely a typo.
    static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "QUERY",
        "PROPFIND", "PROPPATCH", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "REPORT", "SEARCH",
    ]

    private(set) var problems: [ProfileProblem] = []

    /// The profile `root` describes, or `nil` when it has problems (then in ``problems``).
    mutating func read(_ root: Any) -> ServiceProfile? {
        guard let service = root as? [String: Any] else {
            problems.append(ProfileProblem(.wrongType, at: "(profile)", "a profile is a dictionary with BaseURL and Resources; this is \(Self.kind(of: root))"))
            return nil
        }
        unknownKeys(in: service, allowed: Self.serviceKeys, at: "")
        let baseURL = string(service["BaseURL"], at: "BaseURL") ?? ""
        if let problem = ServiceProfile.urlProblem(baseURL, at: "BaseURL") { problems.append(problem) }
        var environments: [String: String] = [:]
        if let value = service["Environments"] {
            if let table = value as? [String: Any] {
                for (name, url) in table.sorted(by: { $0.key < $1.key }) {
                    guard let url = string(url, at: "Environments.\(name)") else { continue }
                    if let problem = ServiceProfile.urlProblem(url, at: "Environments.\(name)") { problems.append(problem) }
                    environments[name] = url
                }
            } else {
                problems.append(ProfileProblem(.wrongType, at: "Environments", "a dictionary of names to base URLs is expected, not \(Self.kind(of: value))"))
            }
        }
        let headers = headerFields(service["Headers"], at: "Headers")
        let timeout = duration(service["Timeout"], at: "Timeout")
        let requestProcessor = processor(service["RequestProcessor"], at: "RequestProcessor")
        let responseProcessor = processor(service["ResponseProcessor"], at: "ResponseProcessor")
        var resources: [ServiceProfile.Resource] = []
        if let value = service["Resources"] {
            if let list = value as? [Any] {
                var seen: Set<String> = []
                for (position, item) in list.enumerated() {
                    guard let resource = resource(item, at: "Resources[\(position)]") else { continue }
                    if !seen.insert(resource.name).inserted {
                        problems.append(ProfileProblem(.duplicateName, at: "Resources[\(position)].Name", "\"\(resource.name)\" names an earlier resource too"))
                    }
                    resources.append(resource)
                }
            } else {
                problems.append(ProfileProblem(.wrongType, at: "Resources", "an array of resources is expected, not \(Self.kind(of: value))"))
            }
        } else {
            problems.append(ProfileProblem(.missingKey, at: "Resources", "a profile needs Resources, an array of {Name, URITemplate, Method}"))
        }
        guard problems.isEmpty else { return nil }
        do {
            return try ServiceProfile(
                baseURL: baseURL, resources: resources, environments: environments, headers: headers, timeout: timeout,
                requestProcessor: requestProcessor, responseProcessor: responseProcessor)
        } catch {
            problems += error.problems
            return nil
        }
    }

    private mutating func resource(_ item: Any, at path: String) -> ServiceProfile.Resource? {
        guard let entry = item as? [String: Any] else {
            problems.append(ProfileProblem(.wrongType, at: path, "a resource is a dictionary with Name and URITemplate, not \(Self.kind(of: item))"))
            return nil
        }
        let before = problems.count
        unknownKeys(in: entry, allowed: Self.resourceKeys, at: path + ".")
        let name = string(entry["Name"], at: path + ".Name", required: "a resource needs a Name")
        let text = string(entry["URITemplate"], at: path + ".URITemplate", required: "a resource needs a URITemplate")
        var template: URITemplate?
        if let text {
            do {
                template = try URITemplate(text)
            } catch {
                // The error's message says where (its offset) and what would be right.
                problems.append(ProfileProblem(.invalidTemplate, at: path + ".URITemplate", "\"\(text)\" does not parse: \(error)"))
            }
        }
        var method = HTTPMethod.get
        if let word = string(entry["Method"], at: path + ".Method") {
            if Self.knownMethods.contains(word) {
                method = HTTPMethod(rawValue: word)
            } else {
                let hint = Self.knownMethods.contains(word.uppercased()) ? " (methods are upper case: \(word.uppercased()))" : ""
                problems.append(ProfileProblem(.unknownMethod, at: path + ".Method", "\"\(word)\" is not an HTTP method\(hint)"))
            }
        }
        let headers = headerFields(entry["Headers"], at: path + ".Headers")
        let timeout = duration(entry["Timeout"], at: path + ".Timeout")
        let requestProcessor = processor(entry["RequestProcessor"], at: path + ".RequestProcessor")
        let responseProcessor = processor(entry["ResponseProcessor"], at: path + ".ResponseProcessor")
        guard problems.count == before, let name, let template else { return nil }
        return ServiceProfile.Resource(
            name: name, template: template, method: method, headers: headers, timeout: timeout,
            requestProcessor: requestProcessor, responseProcessor: responseProcessor)
    }

    // MARK: Values

    private mutating func unknownKeys(in dictionary: [String: Any], allowed: Set<String>, at prefix: String) {
        for key in dictionary.keys.sorted() where !allowed.contains(key) {
            let near = allowed.first { $0.lowercased() == key.lowercased() }.map { " (did you mean \($0)?)" } ?? ""
            problems.append(ProfileProblem(.unknownKey, at: prefix + key, "not a profile key\(near); allowed: \(allowed.sorted().joined(separator: ", "))"))
        }
    }

    private mutating func string(_ value: Any?, at path: String, required: String? = nil) -> String? {
        guard let value else {
            if let required { problems.append(ProfileProblem(.missingKey, at: path, required)) }
            return nil
        }
        guard let text = value as? String else {
            problems.append(ProfileProblem(.wrongType, at: path, "a string is expected, not \(Self.kind(of: value))"))
            return nil
        }
        return text
    }

    private mutating func duration(_ value: Any?, at path: String) -> Duration? {
        guard let value else { return nil }
        guard !(value is String), let seconds = (value as? NSNumber)?.doubleValue ?? (value as? Double) else {
            problems.append(ProfileProblem(.wrongType, at: path, "a number of seconds is expected, not \(Self.kind(of: value))"))
            return nil
        }
        guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            problems.append(ProfileProblem(.invalidValue, at: path, "\(seconds) is not a timeout: give seconds above 0, at most a day"))
            return nil
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private mutating func headerFields(_ value: Any?, at path: String) -> HTTPHeaderFields {
        guard let value else { return [:] }
        guard let table = value as? [String: Any] else {
            problems.append(ProfileProblem(.wrongType, at: path, "a dictionary of header names to values is expected, not \(Self.kind(of: value))"))
            return [:]
        }
        var headers = HTTPHeaderFields()
        for (name, value) in table.sorted(by: { $0.key < $1.key }) {
            guard let text = string(value, at: "\(path).\(name)") else { continue }
            if !HTTPHeaderFields.isValidName(name) {
                problems.append(ProfileProblem(.invalidValue, at: "\(path).\(name)", "\"\(name)\" is not a header name (a token)"))
            } else if !HTTPHeaderFields.isValidValue(text) {
                problems.append(ProfileProblem(.invalidValue, at: "\(path).\(name)", "the value holds CR, LF or NUL and cannot be sent"))
            } else {
                headers.add(text, for: name)
            }
        }
        return headers
    }

    private mutating func processor(_ value: Any?, at path: String) -> ServiceProfile.ProcessorChoice? {
        guard let word = string(value, at: path) else { return nil }
        if let named = ServiceProfile.ProcessorChoice.named[word] { return named }
        if let type = MediaType(word), !word.contains(";") { return .contentType(type.essence) }
        problems.append(ProfileProblem(
            .unknownProcessor, at: path, "\"\(word)\" is neither json, form, xml, multipart, data nor a content type such as text/csv"))
        return nil
    }

    /// What a value is, in the profile's words.
    static func kind(of value: Any) -> String {
        switch value {
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "a dictionary"
        case is NSNumber, is Int, is Double, is Bool: "a number"
        case is Date: "a date"
        case is Data: "data"
        default: "\(type(of: value))"
        }
    }
}
