import ArgumentParser
import Foundation
import Jewzruxin

/// `jewz service`: calls a resource of a service profile (JSON, a property list or YAML, or
/// an OpenAPI document), lists its resources, or verifies it.
struct ServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service",
        abstract: "Call a resource of a service profile (JSON, property list or OpenAPI).",
        discussion: """
            jewz service github.json search q=swift sort=updated
            jewz service http://127.0.0.1:8080/openapi.yaml entry key=ada type=json --env local
            jewz service petstore.yaml --list          name, method and template of each resource
            jewz service github.plist --verify         every problem, one a line (exit status 1 when any)
            Items: name=value and name:=json are the template's values (as jewz expand takes them), \
            Header:Value adds a header. The response prints as jewz URL prints it.
            """)

    @Argument(help: "The profile: a file (JSON, property list, OpenAPI JSON or YAML) or an http(s) URL to fetch it from.")
    var profile: String

    @Argument(help: "RESOURCE [name=value | name:=json | Header:Value ...]")
    var words: [String] = []

    @Flag(help: "Print every problem of the profile, one a line; exit status 1 when there is any.")
    var verify = false

    @Flag(help: "List the profile's resources: name, method and URI template.")
    var list = false

    @Option(help: "Expand the templates against this base URL instead of the profile's.")
    var baseURL: String?

    @Option(help: "Use the base URL of this environment of the profile (its Environments, or an OpenAPI document's servers).")
    var env: String?

    @Option(help: "The request body: JSON for a resource whose request processor is not data, else sent as it is; @PATH reads a file.")
    var raw: String?

    @OptionGroup var printing: PrintOptions

    @Option(help: "Seconds the whole exchange may take.")
    var timeout: Double?

    func run() async throws {
        if baseURL != nil, env != nil { throw ValidationError("Give --base-url or --env, not both.") }
        let parts = try printing.parts()
        let session = HTTPSession(configuration: .init { $0.networkMiddleware = RequestEcho.forPrinting(parts).map { [$0] } ?? [] })
        do {
            try await run(session: session, printing: parts)
        } catch {
            try? await session.shutdown()
            throw error
        }
        try? await session.shutdown()
    }

    private func run(session: HTTPSession, printing parts: String) async throws {
        let data = try await profileData()
        if verify {
            try report(problemsIn: data)
            return
        }
        let serviceProfile: ServiceProfile
        do { serviceProfile = try ServiceProfile(data: data) } catch {
            printError(error.description)
            for problem in error.problems { printLine(Self.line(for: problem)) }
            throw JewzExit.usage.code
        }
        if list {
            printResources(of: serviceProfile)
            return
        }
        guard let resource = words.first else {
            throw ValidationError("Give a resource: jewz service PROFILE RESOURCE [name=value ...]; --list shows them.")
        }
        let (values, headers) = try parseItems(words.dropFirst())
        let service = HTTPService(profile: serviceProfile, session: session)
        let cycle: HTTPCycle
        do {
            if let env { try service.use(environment: env) }
            if let baseURL { service.baseURL = baseURL }
            cycle = try service.cycle(forResource: resource, values: values, object: try requestObject(for: serviceProfile.resource(named: resource), in: serviceProfile))
        } catch let error as ServiceError {
            throw ValidationError(error.description)
        }
        var request = cycle.request
        for name in Set(headers.map { $0.name.lowercased() }) { request.headers.remove(name) }
        for field in headers { request.headers.add(field.value, for: field.name) }
        if let timeout { cycle.options.timeoutForResource = .milliseconds(Int(timeout * 1000)) }
        cycle.request = request

        var failure: HTTPError?
        do { try await cycle.start() } catch let error as HTTPError { failure = error }
        if let response = cycle.response {
            if parts.contains("h") { ExchangePrinter.printResponseHead(response) }
            if parts.contains("b") { ExchangePrinter.printResponseBody(response, parsed: printing.parsed) }
        }
        guard let failure else { return }
        throw RequestCommand.exitStatus(for: failure, response: cycle.response).code
    }

    /// The profile's bytes, from the file or fetched from the URL (by a session of its own,
    /// whose request `--print H` does not show).
    private func profileData() async throws -> Data {
        // A URL as `jewz URL` takes one (`:8000/openapi.yaml` is localhost); anything else is a file.
        guard profile.hasPrefix(":") || profile.contains("://") else {
            do { return try Data(contentsOf: URL(fileURLWithPath: profile)) } catch {
                printError("the profile \(profile) cannot be read: \(error.localizedDescription)")
                throw JewzExit.usage.code
            }
        }
        guard let url = URL(string: RequestCommand.normalizedURL(profile)) else { throw ValidationError("'\(profile)' is not a URL.") }
        let session = HTTPSession()
        let cycle = HTTPCycle(requestURL: url, session: session)
        cycle.options.responseProcessors = []
        let response: HTTPResponse
        do {
            response = try await cycle.start()
        } catch let error as HTTPError {
            try? await session.shutdown()
            printError("the profile could not be fetched from \(profile)")
            throw RequestCommand.exitStatus(for: error, response: cycle.response).code
        }
        try? await session.shutdown()
        return response.data
    }

    /// `--verify`: each problem on a line of standard output, exit status 1 when any.
    private func report(problemsIn data: Data) throws {
        let problems: [ProfileProblem]
        do { problems = try ServiceProfile.problems(in: data) } catch {
            printError(error.description)
            throw JewzExit.usage.code
        }
        for problem in problems { printLine(Self.line(for: problem)) }
        guard problems.isEmpty else {
            printError("\(problems.count) problem\(problems.count == 1 ? "" : "s") in \(profile)")
            throw JewzExit.usage.code
        }
        if let profile = try? ServiceProfile(data: data) { printLine("\(self.profile): valid, \(profile.resources.count) resources") }
    }

    static func line(for problem: ProfileProblem) -> String {
        "\(problem.path): \(problem.message) (\(problem.kind))"
    }

    private func printResources(of profile: ServiceProfile) {
        let nameWidth = profile.resources.map(\.name.count).max() ?? 0
        let methodWidth = profile.resources.map(\.method.rawValue.count).max() ?? 0
        for resource in profile.resources {
            let name = resource.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
            let method = resource.method.rawValue.padding(toLength: methodWidth, withPad: " ", startingAt: 0)
            printLine("\(name)  \(method)  \(resource.template)")
        }
        let environments = profile.environments.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if !profile.baseURL.isEmpty || !environments.isEmpty {
            printLine("base URL: \(profile.baseURL.isEmpty ? "(none)" : profile.baseURL)" + (environments.isEmpty ? "" : "; environments: " + environments.joined(separator: ", ")))
        }
    }

    /// The template values and headers the items give.
    private func parseItems(_ items: ArraySlice<String>) throws -> ([String: URITemplate.Value], HTTPHeaderFields) {
        var values: [String: URITemplate.Value] = [:]
        var headers = HTTPHeaderFields()
        for word in items {
            switch try? RequestItem(word) {
            case .field(let name, let value)?: values[name] = .string(value)
            case .jsonField(let name, let value)?: values[name] = URITemplate.Value(json: value)
            case .header(let name, let value)?: headers.add(value, for: name)
            default: throw ValidationError("'\(word)' is not a value or a header: use name=value, name:=json or Header:Value.")
            }
        }
        return (values, headers)
    }

    /// `--raw` as the resource's request object: JSON unless the resource sends bytes as they are.
    private func requestObject(for resource: ServiceProfile.Resource?, in profile: ServiceProfile) throws -> (any Sendable)? {
        guard let raw else { return nil }
        let bytes: Data
        if raw.hasPrefix("@") {
            do { bytes = try Data(contentsOf: URL(fileURLWithPath: String(raw.dropFirst()))) } catch {
                throw ValidationError("--raw \(raw): the file cannot be read (\(error.localizedDescription)).")
            }
        } else {
            bytes = Data(raw.utf8)
        }
        guard let processor = resource?.requestProcessor ?? profile.requestProcessor, processor != .data else { return bytes }
        do { return try JSONValue(parsing: bytes) } catch {
            throw ValidationError("--raw is not JSON, which resource \(resource?.name ?? "") sends (\(error)).")
        }
    }
}
