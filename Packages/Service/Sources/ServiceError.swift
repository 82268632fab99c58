/// What went wrong with a service: its profile, a resource, a request. A struct with a
/// growable ``Code``, so that a new failure does not break a caller's `switch`.
public struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// A kind of failure. A struct, so that a new one does not break a caller's `switch`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name.
        public let description: String

        /// The profile has problems (``ServiceError/problems`` lists every one).
        public static let invalidProfile = Code(description: "invalidProfile")
        /// The profile could not be read: no such file, or not JSON, a property list or OpenAPI.
        public static let unreadableProfile = Code(description: "unreadableProfile")
        /// No resource of that name in the profile.
        public static let unknownResource = Code(description: "unknownResource")
        /// No environment of that name in the profile.
        public static let unknownEnvironment = Code(description: "unknownEnvironment")
        /// The values given do not expand the resource's template into a URL.
        public static let invalidURL = Code(description: "invalidURL")
        /// The session's registry has no processor for a content type the profile names.
        public static let processorUnavailable = Code(description: "processorUnavailable")
    }

    /// What went wrong.
    public let code: Code
    /// For ``Code/invalidProfile``: every problem found, in document order.
    public let problems: [ProfileProblem]
    /// What went wrong and what to do about it.
    public let description: String

    static func invalidProfile(_ problems: [ProfileProblem]) -> ServiceError {
        let first = problems.first.map { ": \($0)" } ?? ""
        let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
        return ServiceError(
            code: .invalidProfile, problems: problems,
            description: "The service profile is not valid\(first)\(more). Fix the profile; verifyProfile lists every problem.")
    }

    static func unreadableProfile(_ what: String, _ reason: String) -> ServiceError {
        ServiceError(
            code: .unreadableProfile, problems: [],
            description: "The service profile \(what) cannot be read (\(reason)): give a JSON, property list or OpenAPI file.")
    }

    static func unknownResource(_ name: String, known: [String]) -> ServiceError {
        ServiceError(
            code: .unknownResource, problems: [],
            description: "The service has no resource \"\(name)\"; it has \(known.map { "\"\($0)\"" }.joined(separator: ", ")).")
    }

    static func unknownEnvironment(_ name: String, known: [String]) -> ServiceError {
        let list = known.isEmpty ? "none" : known.map { "\"\($0)\"" }.joined(separator: ", ")
        return ServiceError(
            code: .unknownEnvironment, problems: [],
            description: "The service has no environment \"\(name)\"; its profile names \(list).")
    }

    static func invalidURL(_ text: String, resource: String) -> ServiceError {
        ServiceError(
            code: .invalidURL, problems: [],
            description: "Resource \"\(resource)\" expands to \"\(text)\", which is not an http or https URL: set a base URL or check the values.")
    }

    static func processorUnavailable(_ contentType: String, resource: String) -> ServiceError {
        ServiceError(
            code: .processorUnavailable, problems: [],
            description: "Resource \"\(resource)\" asks for a processor for \(contentType), and the session's registry has none: register one, or import Jewzruxin.")
    }
}
