import Foundation
import Jewzruxin
import JewzSandbox

/// The tour's steps about services: a profile's resources called by name, Reuse under
/// concurrency, and an OpenAPI document as a profile.
extension TourStep {
    static func serviceSteps(_ sandbox: Sandbox) -> [TourStep] {
        [
            TourStep(
                title: "Services: call an API's resources by name, from a profile; 10 callers reusing share one exchange",
                code: """
                    let profile = try ServiceProfile(dictionary: [
                        "BaseURL": "https://api.github.example", "Environments": ["local": sandboxURL],
                        "ResponseProcessor": "json",
                        "Resources": [["Name": "user", "URITemplate": "/cached/{user}{?type,delay}"]]])
                    let github = HTTPService(profile: profile)
                    try github.use(environment: "local")
                    // 10 at once, one identifier, .reuse: one request reaches the server
                    let cycle = try await github.request("user", values: ["user": "ada", "type": "json", "delay": 100],
                                                         identifier: "ada", option: .reuse)
                    """
            ) {
                let profile = try ServiceProfile(dictionary: [
                    "BaseURL": "https://api.github.example", "Environments": ["local": sandbox.baseURL],
                    "ResponseProcessor": "json",
                    "Resources": [["Name": "user", "URITemplate": "/cached/{user}{?type,delay}"]],
                ])
                let session = HTTPSession()
                let github = HTTPService(profile: profile, session: session)
                try github.use(environment: "local")
                let keys = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<10 {
                        group.addTask {
                            let cycle = try await github.request(
                                "user", values: ["user": "tour-ada", "type": "json", "delay": 100], identifier: "ada", option: .reuse)
                            return (cycle.response?.object as? JSONValue)?["key"].string ?? "?"
                        }
                    }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
                try await session.shutdown()
                return Outcome(
                    "\(keys.sorted().joined(separator: ", ")); the server saw \(sandbox.router.cacheHits(forKey: "tour-ada"))",
                    expected: "tour-ada; the server saw 1")
            },
            TourStep(
                title: "An OpenAPI document is a profile: operations by operationId, parameters as URI templates",
                code: """
                    let profile = try await ServiceProfile.fetch(from: url("/openapi.yaml"))
                    profile.resource(named: "inspect")?.template   // /inspect{?q,tags*,page%2Dsize}
                    let cycle = try await HTTPService(profile: profile)
                        .request("inspect", values: ["tags": ["a", "b"], "page-size": 20])
                    """
            ) {
                let session = HTTPSession()
                guard let document = URL(string: sandbox.url("/openapi.yaml")) else { throw HTTPError.invalidURL("/openapi.yaml") }
                let profile = try await ServiceProfile.fetch(from: document, session: session)
                let cycle = try await HTTPService(profile: profile, session: session)
                    .request("inspect", values: ["tags": ["a", "b"], "page-size": 20])
                try await session.shutdown()
                let template = profile.resource(named: "inspect").map { "\($0.template)" } ?? "?"
                let uri = (cycle.response?.object as? JSONValue)?["uri"].string ?? "?"
                return Outcome("\(template) → \(uri)", expected: "/inspect{?q,tags*,page%2Dsize} → /inspect?tags=a&tags=b&page%2Dsize=20")
            },
        ]
    }
}
