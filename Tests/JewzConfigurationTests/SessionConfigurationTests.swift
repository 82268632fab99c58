import Configuration
import Foundation
import JewzConfiguration
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// A session's configuration read from swift-configuration's providers: each key over the
/// base, a bad value named by its key, the resilience stages made from their keys.
@Suite struct SessionConfigurationTests {
    private func reader(_ values: [AbsoluteConfigKey: ConfigValue]) -> ConfigReader {
        ConfigReader(provider: InMemoryProvider(values: values))
    }

    @Test func eachKeyIsPutOverTheBase() throws {
        let base = HTTPSession.Configuration { $0.maximumRedirects = 3; $0.retryPolicy.baseDelay = .seconds(7) }
        let configuration = try HTTPSession.Configuration(config: reader([
            "baseURL": "https://api.example.com/v2/", "userAgent": "gateway/1.0",
            "timeout.resource": ConfigValue(.double(2.5), isSecret: false), "timeout.connect": 3, "timeout.idle": 40,
            "retry.maximumCount": 1, "retry.statusCodes": ConfigValue(.intArray([429, 503]), isSecret: false),
            "redirects.follow": ConfigValue(.bool(false), isSecret: false), "pool.maximumConnectionsPerHost": 8,
            "httpVersion": "http1", "maximumActiveRequests": 32, "maximumResponseBodySize": 1_048_576,
            "tls.minimumVersion": "1.3",
        ]), base: base)
        #expect(configuration.baseURL?.absoluteString == "https://api.example.com/v2/")
        #expect(configuration.additionalHeaders["User-Agent"] == "gateway/1.0")
        #expect(configuration.timeoutForResource == .milliseconds(2500))
        #expect(configuration.transport.timeouts.connect == .seconds(3) && configuration.transport.timeouts.idle == .seconds(40))
        #expect(configuration.retryPolicy.maximumRetryCount == 1 && configuration.retryPolicy.retryableStatusCodes == [429, 503])
        #expect(configuration.retryPolicy.baseDelay == .seconds(7), "a key not given keeps the base's value")
        #expect(configuration.followsRedirects == false && configuration.maximumRedirects == 3)
        #expect(configuration.transport.connectionPool.maximumConnectionsPerHost == 8)
        #expect(configuration.transport.httpVersion == .http1Only && configuration.transport.tls.minimumVersion == .tls13)
        #expect(configuration.maximumActiveRequests == 32 && configuration.maximumResponseBodySize == 1_048_576)
    }

    @Test func environmentVariablesNameTheKeysInCapitals() throws {
        let config = ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: [
            "HTTP_TIMEOUT_CONNECT": "1.5", "HTTP_RETRY_MAXIMUM_COUNT": "0", "HTTP_RETRY_STATUS_CODES": "502,503",
        ]))
        let configuration = try HTTPSession.Configuration(config: config.scoped(to: "http"))
        #expect(configuration.transport.timeouts.connect == .milliseconds(1500))
        #expect(configuration.retryPolicy.maximumRetryCount == 0)
        #expect(configuration.retryPolicy.retryableStatusCodes == [502, 503])
    }

    @Test(arguments: [
        ("timeout.connect", ConfigValue("soon"), "a number"),
        ("retry.maximumCount", ConfigValue(-1), "0 or more"),
        ("httpVersion", ConfigValue("http3"), "automatic or http1"),
        ("circuitBreaker.failureRatio", ConfigValue(.double(1.5), isSecret: false), "from 0.0 to 1.0"),
        ("redirects.follow", ConfigValue("sometimes"), "true or false"),
    ])
    func aValueThatCannotBeUsedIsNamedByItsKey(key: String, value: ConfigValue, expected: String) {
        #expect {
            _ = try HTTPSession.Configuration(config: reader([AbsoluteConfigKey(stringLiteral: key): value]))
        } throws: { error in
            guard let error = error as? SessionConfigurationError else { return false }
            return error.code == .invalidValue && error.key == key && error.description.contains(expected)
        }
    }

    @Test func aRateLimitWindowWithoutItsRequestsNamesTheMissingKey() {
        #expect {
            _ = try HTTPSession.Configuration(config: reader(["rateLimit.window": 60]))
        } throws: { error in
            guard let error = error as? SessionConfigurationError else { return false }
            return error.code == .invalidValue && error.key == "rateLimit.requests" && error.description.contains("rateLimit.window")
        }
    }

    @Test func aProxyPasswordIsNeverInTheError() {
        #expect {
            _ = try HTTPSession.Configuration(config: reader(["proxy.url": ConfigValue("ftp://user:hunter2@proxy", isSecret: true)]))
        } throws: { error in
            "\(error)".contains("proxy.url") && !"\(error)".contains("hunter2")
        }
    }

    @Test func aMissingFileIsNamedByItsKey() {
        #expect {
            _ = try HTTPSession.Configuration(config: reader(["tls.additionalTrustRoots": "/nonexistent/roots.pem"]))
        } throws: { error in
            (error as? SessionConfigurationError)?.code == .unreadableFile && "\(error)".contains("/nonexistent/roots.pem")
        }
    }

    @Test func resilienceKeysMakeTheirStagesFirstInTheNetworkMiddleware() throws {
        let base = HTTPSession.Configuration { $0.networkMiddleware = [HTTPHeaderMiddleware(["X-Base": "1"])] }
        let configuration = try HTTPSession.Configuration(config: reader([
            "hedging.delay": ConfigValue(.double(0.05), isSecret: false), "circuitBreaker.minimumCalls": 5,
            "bulkhead.maximumConcurrentCalls": 4, "rateLimit.requests": 10, "rateLimit.window": 1,
        ]), base: base)
        #expect(configuration.networkMiddleware.map(\.name) == ["hedging", "circuit breaker", "bulkhead", "rate limiter", "headers"])
    }

    @Test func aJSONFileConfiguresCallsToTheSandbox() async throws {
        let sandbox = try await Sandbox.start()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-config-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"http": {"baseURL": "\#(sandbox.url("/"))", "retry": {"maximumCount": 0}}}"#.utf8).write(to: file)
        let config = ConfigReader(provider: try await FileProvider<JSONSnapshot>(filePath: .init(file.path)))
        let session = HTTPSession(configuration: try .init(config: config.scoped(to: "http")))
        let refused = await httpError { _ = try await HTTPCycle.get("counter?key=once&fail=1", session: session) }
        #expect(refused?.statusCode == 503)
        #expect(sandbox.router.requestCount(forKey: "once") == 1, "retry.maximumCount 0: not retried")
        try await session.shutdown()
        try await sandbox.shutdown()
    }
}
