import Foundation
import Jewzruxin
import JewzSandbox
import JewzTestSupport
import Testing

/// The GitHub-style API as typed endpoints: cases the compiler checks, responses decoded.
enum GitHubAPI: ServiceEndpoint {
    struct Entry: Decodable, Sendable, Equatable {
        let key: String
        let hit: Int
    }
    typealias Response = Entry

    case user(String)
    case repos(of: String)
    case issues(of: String)

    var resourceName: String {
        switch self {
        case .user: "user"
        case .repos: "repos"
        case .issues: "issues"
        }
    }

    var values: [String: URITemplate.Value] {
        switch self {
        case .user(let name), .repos(of: let name), .issues(of: let name): ["user": .string(name), "type": "json"]
        }
    }
}

/// Uploads answer with the bytes sent: `Data` as the response type takes them as they come.
struct Upload: ServiceEndpoint {
    typealias Response = Data
    let bytes: Data
    var resourceName: String { "upload" }
    var body: (any Sendable)? { bytes }
}

@Suite struct EndpointTests {
    @Test func typedEndpointsDecodeTheirResponses() async throws {
        try await withService { _, service in
            let user = try await service.send(GitHubAPI.user("ada"))
            #expect(user == GitHubAPI.Entry(key: "ada", hit: 1))
            let repos = try await service.send(GitHubAPI.repos(of: "ada"))
            #expect(repos.key == "ada-repos")
            let echoed = try await service.send(Upload(bytes: Data([0, 1, 2, 0xFF])))
            #expect(echoed == Data([0, 1, 2, 0xFF]))
        }
    }

    @Test func anEndpointTheProfileLacksIsFoundUpFront() async throws {
        try await withService { _, service in
            #expect(service.missingResources(of: [GitHubAPI.user("a"), .issues(of: "a"), .issues(of: "b")]) == ["issues"])
            let error = await #expect(throws: ServiceError.self) { try await service.send(GitHubAPI.issues(of: "a")) }
            #expect(error?.code == .unknownResource)
        }
    }

    @Test func aBodyThatIsNotTheResponseTypeIsAProcessorError() async throws {
        try await withService { _, service in
            let error = await #expect(throws: HTTPError.self) { try await service.send(Mistyped()) }
            #expect(error?.code == .processor)
            #expect(error?.description.contains("JSONDecoder(Entry)") == true, "\(String(describing: error))")
            #expect(error?.response?.statusCode == 200)
        }
    }
}

/// `user` as text, read as if it were JSON.
private struct Mistyped: ServiceEndpoint {
    typealias Response = GitHubAPI.Entry
    var resourceName: String { "user" }
    var values: [String: URITemplate.Value] { ["user": "plain"] }
}
