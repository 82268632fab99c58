import Foundation
import JewzHTTPCore
import JewzURLSession
import JewzMocking
import JewzSandbox
import JewzTestSupport
import Testing

/// A session with a base URL takes paths, as an API client does.
@Suite struct BaseURLTests {
    @Test(arguments: ["/hello/", "hello/"]) func pathsGoToTheBaseURLsServer(_ path: String) async throws {
        let sandbox = try await Sandbox.start()
        var configuration = HTTPSession.Configuration()
        configuration.baseURL = URL(string: sandbox.url(""))
        let api = HTTPSession(configuration: configuration)
        let response = try await HTTPCycle.get(path, session: api)
        #expect(response.text == "Hello World")
        // An absolute URL is taken as it is.
        let absolute = try await HTTPCycle.get(sandbox.url("/hello/"), session: api)
        #expect(absolute.text == "Hello World")
        try await api.shutdown()
        try await sandbox.shutdown()
    }

    @Test(arguments: ["https://api.test/v1", "https://api.test/v1/"]) func aBasePathIsKept(_ base: String) throws {
        var configuration = HTTPSession.Configuration()
        configuration.baseURL = URL(string: base)
        configuration.customTransport = MockTransport()
        let api = HTTPSession(configuration: configuration)
        for path in ["/users/42", "users/42"] {
            let cycle = try HTTPCycle(path, method: .get, parameters: ["q": "a b"], session: api)
            #expect(cycle.request.url.absoluteString == "https://api.test/v1/users/42?q=a%20b")
        }
    }

    @Test func withoutABaseURLAPathIsAnInvalidURL() async throws {
        let error = await httpError { try await HTTPCycle.get("/users/42", session: HTTPSession(configuration: .init { $0.customTransport = MockTransport() })) }
        #expect(error?.code == .invalidURL)
    }
}

@Suite struct DefaultSessionTests {
    /// In a child process, where nothing has used the default session yet.
    @Test func theDefaultSessionTakesItsConfigurationBeforeFirstUse() async {
        await #expect(processExitsWith: .success) {
            var configuration = HTTPSession.Configuration()
            configuration.additionalHeaders = ["User-Agent": "configured/1.0"]
            let mock = MockTransport()
            mock.stub(.get, path: "/agent", status: 200)
            configuration.customTransport = mock
            try HTTPSession.configureDefault(configuration)
            _ = try await HTTPCycle.get("http://example.test/agent")
            guard mock.requests.first?.headers["User-Agent"] == "configured/1.0" else { exit(1) }
        }
    }

    @Test func theDefaultSessionCannotBeReconfiguredOnceInUse() {
        _ = HTTPSession.default
        let error = #expect(throws: HTTPError.self) {
            try HTTPSession.configureDefault(HTTPSession.Configuration())
        }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("configureDefault before the first request") == true)
    }
}

/// A transport that cannot honour a setting says so when it is made, rather than ignoring it.
@Suite struct TransportCapabilityTests {
    @Test func urlSessionRefusesWhatItCannotHonourNamingTheSetting() throws {
        let pem = try SandboxCertificates.generate().authorityPEM
        let settings: [(String, (inout AsyncHTTPClientTransport.Configuration) throws -> Void)] = [
            ("tls.additionalTrustRoots", { $0.tls.additionalTrustRoots = [try .init(pem: pem)] }),
            ("tls.trustRoots", { $0.tls.trustRoots = .only([try .init(pem: pem)]) }),
            ("tls.verification", { $0.tls.verification = .none }),
            ("tls.minimumVersion", { $0.tls.minimumVersion = .tls13 }),
            ("httpVersion", { $0.httpVersion = .http1Only }),
            ("proxies", { $0.proxies = .all(try .init(url: "http://127.0.0.1:3128")) }),
        ]
        for (name, change) in settings {
            var configuration = HTTPSession.Configuration()
            try change(&configuration.transport)
            #expect {
                try URLSessionTransport(configuration: configuration)
            } throws: { error in
                guard let error = error as? HTTPError, error.code == .invalidConfiguration else { return false }
                return error.description.contains("transport.\(name)") && error.description.contains("URLSessionTransport")
            }
        }
        #expect(throws: Never.self) { try URLSessionTransport(configuration: .init()) }
    }
}
