import Foundation
import Jewzruxin
import JewzSandbox
import JewzTestSupport

/// A GitHub-style profile on the Sandbox's routes: search (query), user and repos (path
/// segments, JSON), an upload with another processor, and a resource behind Basic auth.
func githubProfile(local: String) -> [String: Any] {
    [
        "BaseURL": "https://api.github.example",
        "Environments": ["production": "https://api.github.example", "local": local],
        "Headers": ["Accept": "application/json", "X-Client": "jewz"],
        "ResponseProcessor": "json",
        "Resources": [
            ["Name": "search", "URITemplate": "/inspect{?q,sort,order}"],
            ["Name": "user", "URITemplate": "/cached/{user}{?type}", "Headers": ["X-Client": "jewz-user"]],
            ["Name": "repos", "URITemplate": "/cached/{user}-repos{?type,delay}", "Timeout": 60],
            [
                "Name": "upload", "URITemplate": "/dumpupload/", "Method": "POST", "RequestProcessor": "data",
                "ResponseProcessor": "data", "Headers": ["Content-Type": "application/octet-stream"],
            ],
            ["Name": "secret", "URITemplate": "/hello_with_basic_auth", "ResponseProcessor": "data"],
        ],
    ]
}

/// Runs `body` with a Sandbox and a session whose registry holds the standard processors.
func withService(_ body: (Sandbox, HTTPService) async throws -> Void) async throws {
    try await withSandbox(registry: .standard()) { sandbox, session in
        let service = HTTPService(profile: try ServiceProfile(dictionary: githubProfile(local: sandbox.url(""))), session: session)
        try service.use(environment: "local")
        try await body(sandbox, service)
    }
}
