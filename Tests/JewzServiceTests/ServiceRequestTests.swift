import Foundation
import JewzLocking
import Jewzruxin
import JewzSandbox
import JewzTestSupport
import Testing

/// The GitHub-style profile end to end against the Sandbox: routes, headers, processors,
/// environments, credentials scoped to one, the hook, and the failures a caller can meet.
@Suite struct ServiceRequestTests {
    @Test func searchExpandsItsTemplateAgainstTheBaseURLWithTheProfilesHeaders() async throws {
        try await withService { _, service in
            let cycle = try await service.request("search", values: ["q": "jewz ruxin", "sort": "updated"])
            let seen = try #require(cycle.response?.object as? JSONValue)
            #expect(seen["method"].string == "GET")
            #expect(seen["uri"].string == "/inspect?q=jewz%20ruxin&sort=updated")
            let headers = seen["headers"].array?.compactMap { pair in pair[0].string.map { ($0.lowercased(), pair[1].string ?? "") } } ?? []
            #expect(headers.contains { $0 == ("accept", "application/json") })
            #expect(headers.contains { $0 == ("x-client", "jewz") })
        }
    }

    @Test func userAndReposAreReadAsJSONWithTheirOwnHeadersAndTimeout() async throws {
        try await withService { sandbox, service in
            let user = try await service.request("user", values: ["user": "octocat", "type": "json"])
            #expect((user.response?.object as? JSONValue)?["key"].string == "octocat")
            #expect(user.request.headers["X-Client"] == "jewz-user")
            #expect(user.request.headers["Accept"] == "application/json")
            let repos = try await service.request("repos", values: ["user": "octocat", "type": "json"])
            #expect((repos.response?.object as? JSONValue)?["key"].string == "octocat-repos")
            #expect(repos.options.timeoutForResource == .seconds(60))
            #expect(repos.request.url.absoluteString == sandbox.url("/cached/octocat-repos?type=json"))
        }
    }

    @Test func uploadSendsItsBytesWithAnotherProcessor() async throws {
        try await withService { _, service in
            let bytes = Data("raw upload \u{1F4E6}".utf8)
            let cycle = try await service.request("upload", object: bytes)
            #expect(cycle.request.method == .post)
            #expect(cycle.response?.data == bytes)
            #expect(cycle.response?.object as? Data == bytes)
            #expect(cycle.response?.headers["Content-Type"] == "application/octet-stream")
        }
    }

    @Test func environmentsSwitchTheBaseURLAndScopeTheirCredentials() async throws {
        try await withSandbox(registry: .standard()) { sandbox, session in
            var profile = githubProfile(local: sandbox.url(""))
            profile["Environments"] = ["staging": sandbox.url(""), "local": sandbox.url("")]
            let service = HTTPService(profile: try ServiceProfile(dictionary: profile), session: session)
            #expect(service.baseURL == "https://api.github.example")
            service.setAuthentications([BasicAuthentication(username: "test", password: "12345")], for: "staging")

            try service.use(environment: "staging")
            #expect(service.environment == "staging")
            let allowed = try await service.request("secret")
            #expect(allowed.response?.text == "Hello World")

            try service.use(environment: "local")
            let refused = await #expect(throws: HTTPError.self) { try await service.request("secret") }
            #expect(refused?.response?.statusCode == 401)
            // The service's own, for environments without theirs.
            service.authentications = [BasicAuthentication(username: "test", password: "12345")]
            #expect(try await service.request("secret").response?.statusCode == 200)
            service.authentications = nil

            let unknown = #expect(throws: ServiceError.self) { try service.use(environment: "qa") }
            #expect(unknown?.code == .unknownEnvironment)
            #expect(unknown?.description.contains("\"local\", \"staging\"") == true)
            #expect(service.environment == "local")

            try service.use(environment: nil)
            #expect(service.baseURL == "https://api.github.example")
            service.baseURL = sandbox.url("")
            let switched = try await service.request("user", values: ["user": "ada", "type": "json"])
            #expect((switched.response?.object as? JSONValue)?["hit"].int == 1)
        }
    }

    @Test func theHookSeesEveryCycleRightAfterItIsMade() async throws {
        try await withService { _, service in
            let seen = Mutex<[String]>([])
            service.cycleDidCreate = { cycle, name in
                seen.withLock { $0.append(name) }
                if name == "search" { cycle.request.headers["X-Hooked"] = "yes" }
            }
            let cycle = try await service.request("search", values: ["q": "x"])
            _ = try service.cycle(forResource: "user", values: ["user": "ada"])
            #expect(seen.withLock { $0 } == ["search", "user"])
            let headers = (cycle.response?.object as? JSONValue)?["headers"].array ?? []
            #expect(headers.contains { $0[0].string == "X-Hooked" && $0[1].string == "yes" })
        }
    }

    @Test func aDefinitionFindsItsProfileByNameAndMakesItsSession() async throws {
        struct GitHub: HTTPServiceDefinition {
            static let serviceName = "github"
            let session: HTTPSession
            func makeSession() -> HTTPSession { session }
            func cycleDidCreate(_ cycle: HTTPCycle, resourceName: String) {
                cycle.request.headers["X-Resource"] = resourceName
            }
        }
        try await withSandbox(registry: .standard()) { sandbox, session in
            let directory = try makeScratchDirectory(prefix: "jewz-profiles")
            defer { try? FileManager.default.removeItem(at: directory) }
            var profile = githubProfile(local: sandbox.url(""))
            profile["BaseURL"] = sandbox.url("")
            try JSONSerialization.data(withJSONObject: profile).write(to: directory.appendingPathComponent("github.json"))

            let service = try HTTPService(GitHub(session: session), profilesIn: directory)
            #expect(service.session === session)
            let cycle = try await service.request("search", values: ["q": "swift"])
            let headers = (cycle.response?.object as? JSONValue)?["headers"].array ?? []
            #expect(headers.contains { $0[0].string == "X-Resource" && $0[1].string == "search" })
        }
    }

    @Test func theCompletionFormCallsBackOnce() async throws {
        try await withService { _, service in
            let key: String? = try await withCheckedThrowingContinuation { continuation in
                do {
                    try service.request("user", values: ["user": "grace", "type": "json"]) { cycle, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else {
                            continuation.resume(returning: (cycle.response?.object as? JSONValue)?["key"].string)
                        }
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            #expect(key == "grace")
        }
    }

    @Test func whatACallerGetsWrongIsATypedError() async throws {
        try await withSandbox { sandbox, session in
            let service = HTTPService(profile: try ServiceProfile(dictionary: githubProfile(local: sandbox.url(""))), session: session)
            let unknown = #expect(throws: ServiceError.self) { try service.cycle(forResource: "issues") }
            #expect(unknown?.code == .unknownResource)
            #expect(unknown?.description.contains("\"search\", \"user\"") == true)

            // The session's registry is empty: the profile's json processor cannot be found.
            try service.use(environment: "local")
            let missing = #expect(throws: ServiceError.self) { try service.cycle(forResource: "search") }
            #expect(missing?.code == .processorUnavailable)

            let relative = HTTPService(profile: try ServiceProfile(dictionary: ["Resources": [["Name": "r", "URITemplate": "/r{?q}"]]]), session: session)
            let noBase = #expect(throws: ServiceError.self) { try relative.cycle(forResource: "r", values: ["q": "x"]) }
            #expect(noBase?.code == .invalidURL)
            #expect(noBase?.description.contains("\"/r?q=x\"") == true)
        }
    }

    /// Setting a profile replaces the resources, takes its base URL and leaves the environment.
    @Test func settingTheProfileReplacesResourcesBaseURLAndEnvironment() async throws {
        try await withService { sandbox, service in
            #expect(service.environment == "local")
            service.profile = try ServiceProfile(dictionary: [
                "BaseURL": sandbox.url(""),
                "Resources": [["Name": "greeting", "URITemplate": "/hello/", "ResponseProcessor": "data"]],
            ])
            #expect(service.environment == nil)
            #expect(service.baseURL == sandbox.url(""))
            let greeting = try await service.request("greeting")
            #expect(greeting.response?.text == "Hello World")
            let gone = await #expect(throws: ServiceError.self) { try await service.request("user", values: ["user": "x"]) }
            #expect(gone?.code == .unknownResource)
        }
    }
}
