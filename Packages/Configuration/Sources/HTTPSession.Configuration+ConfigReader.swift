import Configuration
import Foundation
import JewzCache
import JewzHTTPCore

extension HTTPSession.Configuration {
    /// A configuration read from `config`: `base` (the defaults, or what the program set in
    /// code) with each key the providers have put over it. Keys are relative to the reader, so a
    /// program that keeps the session's settings under `http` passes `config.scoped(to: "http")`;
    /// with `EnvironmentVariablesProvider`, `timeout.connect` is `HTTP_TIMEOUT_CONNECT` and
    /// `retry.maximumCount` is `HTTP_RETRY_MAXIMUM_COUNT`, a list is comma-separated.
    ///
    /// ```swift
    /// let config = ConfigReader(providers: [
    ///     EnvironmentVariablesProvider(),
    ///     try await FileProvider<JSONSnapshot>(filePath: "/etc/gateway/config.json"),
    /// ])
    /// let session = HTTPSession(configuration: try .init(config: config.scoped(to: "http")))
    /// ```
    ///
    /// | Key | Setting | Takes |
    /// | --- | --- | --- |
    /// | `baseURL` | `baseURL` | an http or https URL |
    /// | `userAgent` | the `User-Agent` of `additionalHeaders` | text |
    /// | `timeout.resource` | `timeoutForResource` | seconds |
    /// | `timeout.connect`, `timeout.idle` | `transport.timeouts` | seconds |
    /// | `retry.maximumCount` | `retryPolicy.maximumRetryCount` | 0 or more |
    /// | `retry.baseDelay`, `retry.maximumDelay` | `retryPolicy` | seconds |
    /// | `retry.statusCodes` | `retryPolicy.retryableStatusCodes` | a list of statuses |
    /// | `redirects.follow`, `redirects.maximum` | `followsRedirects`, `maximumRedirects` | true or false; 0 or more |
    /// | `pool.maximumConnectionsPerHost` | `transport.connectionPool` | 1 or more |
    /// | `httpVersion` | `transport.httpVersion` | `automatic` or `http1` |
    /// | `maximumActiveRequests` | `maximumActiveRequests` | 1 or more |
    /// | `maximumResponseBodySize` | `maximumResponseBodySize` | bytes |
    /// | `proxy.url`, `proxy.bypass` | `transport.proxies` (every scheme) | a proxy URL (a secret: it may hold a password); a list of hosts |
    /// | `tls.trustRoots` | `transport.tls.trustRoots` | `system`, or a PEM file's path: those roots only |
    /// | `tls.additionalTrustRoots` | `transport.tls.additionalTrustRoots` | a PEM file's path |
    /// | `tls.certificate`, `tls.privateKey` | `transport.tls.clientIdentity` | PEM files' paths, both |
    /// | `tls.minimumVersion` | `transport.tls.minimumVersion` | `1.2` or `1.3` |
    /// | `cache.directory`, `cache.sizeLimit` | `cache`: an `HTTPCache` on disk | a path; bytes |
    /// | `hedging.delay` or `hedging.percentile`, `hedging.maximumAttempts` | a `Hedging` stage | seconds, or 0.5 to 1 (0.95: the origin's p95); 1 or more |
    /// | `circuitBreaker.failureRatio`, `.minimumCalls`, `.window`, `.openDuration`, `.probes` | a `CircuitBreaker` | 0 to 1; 1 or more; seconds; seconds; 1 or more |
    /// | `bulkhead.maximumConcurrentCalls`, `bulkhead.maximumWaitingCalls` | a `Bulkhead` | 1 or more; 0 or more |
    /// | `rateLimit.requests`, `.window`, `.learnsFromServers`, `.maximumWait` | a `RateLimiter` | 1 or more; seconds; true or false; seconds |
    ///
    /// A resilience stage is made when one of its keys is there, and goes first in
    /// `networkMiddleware`, hedging before the others, `base`'s after them.
    ///
    /// - Throws: ``SessionConfigurationError`` naming the first key whose value cannot be used:
    ///   of the wrong kind, out of range, or a file that cannot be read.
    public init(config: ConfigReader, base: HTTPSession.Configuration = .init()) throws(SessionConfigurationError) {
        let reader = SettingsReader(snapshot: config.snapshot())
        self = base
        try apply(reader)
        let resilience = try ResilienceSettings(reader)
        networkMiddleware = resilience.stages(reusing: nil).middleware + base.networkMiddleware
    }

    /// Puts the keys `reader` has over this configuration, all but the resilience stages.
    mutating func apply(_ reader: SettingsReader) throws(SessionConfigurationError) {
        try applyExceptTransport(reader)
        try applyTransport(reader)
    }

    /// The keys that set ``transport``: a change to any of them makes the session a new transport.
    static let transportKeys = [
        "timeout.connect", "timeout.idle", "pool.maximumConnectionsPerHost", "httpVersion", "proxy.url", "proxy.bypass",
        "tls.trustRoots", "tls.additionalTrustRoots", "tls.certificate", "tls.privateKey", "tls.minimumVersion",
    ]

    /// Every key a configuration reads, the secrets marked.
    static let readKeys: [(key: String, isSecret: Bool)] =
        ["baseURL", "userAgent", "timeout.resource", "retry.maximumCount", "retry.baseDelay", "retry.maximumDelay", "retry.statusCodes",
         "redirects.follow", "redirects.maximum", "maximumActiveRequests", "maximumResponseBodySize", "cache.directory", "cache.sizeLimit",
         "hedging.delay", "hedging.percentile", "hedging.maximumAttempts", "circuitBreaker.failureRatio", "circuitBreaker.minimumCalls",
         "circuitBreaker.window", "circuitBreaker.openDuration", "circuitBreaker.probes", "bulkhead.maximumConcurrentCalls",
         "bulkhead.maximumWaitingCalls", "rateLimit.requests", "rateLimit.window", "rateLimit.learnsFromServers", "rateLimit.maximumWait"]
        .map { ($0, false) } + transportKeys.map { ($0, $0 == "proxy.url") }

    private mutating func applyExceptTransport(_ reader: SettingsReader) throws(SessionConfigurationError) {
        if let url = try reader.url("baseURL") { baseURL = url }
        if let userAgent = reader.string("userAgent") { additionalHeaders["User-Agent"] = userAgent }
        if let seconds = try reader.seconds("timeout.resource") { timeoutForResource = seconds }
        if let count = try reader.int("retry.maximumCount", atLeast: 0) { retryPolicy.maximumRetryCount = count }
        if let delay = try reader.seconds("retry.baseDelay") { retryPolicy.baseDelay = delay }
        if let delay = try reader.seconds("retry.maximumDelay") { retryPolicy.maximumDelay = delay }
        if let statuses = try reader.ints("retry.statusCodes") {
            guard statuses.allSatisfy((100...999).contains) else { throw .invalid("retry.statusCodes", expected: "a list of statuses from 100 to 999") }
            retryPolicy.retryableStatusCodes = Set(statuses)
        }
        if let follows = try reader.bool("redirects.follow") { followsRedirects = follows }
        if let maximum = try reader.int("redirects.maximum", atLeast: 0) { maximumRedirects = maximum }
        if let maximum = try reader.int("maximumActiveRequests", atLeast: 1) { maximumActiveRequests = maximum }
        if let size = try reader.int("maximumResponseBodySize", atLeast: 0) { maximumResponseBodySize = size }
        if let directory = reader.string("cache.directory") {
            let sizeLimit = try reader.int("cache.sizeLimit", atLeast: 1 << 20) ?? 256 << 20
            do {
                cache = try HTTPCache(directory: URL(fileURLWithPath: directory, isDirectory: true), sizeLimit: sizeLimit)
            } catch {
                throw .unreadable("cache.directory", because: "\(directory): \(error)")
            }
        }
    }

    /// Puts the transport keys `reader` has over `transport`, which is assigned once, whole
    /// (a session remakes its transport when it is assigned), and only when one of them is there.
    private mutating func applyTransport(_ reader: SettingsReader) throws(SessionConfigurationError) {
        guard Self.transportKeys.contains(where: reader.has) else { return }
        var transport = self.transport
        if let seconds = try reader.seconds("timeout.connect") { transport.timeouts.connect = seconds }
        if let seconds = try reader.seconds("timeout.idle") { transport.timeouts.idle = seconds }
        if let maximum = try reader.int("pool.maximumConnectionsPerHost", atLeast: 1) { transport.connectionPool.maximumConnectionsPerHost = maximum }
        if let version = reader.string("httpVersion") {
            switch version.lowercased() {
            case "automatic": transport.httpVersion = .automatic
            case "http1", "http/1.1", "1.1": transport.httpVersion = .http1Only
            default: throw .invalid("httpVersion", expected: "automatic or http1")
            }
        }
        try Self.applyProxy(reader, to: &transport)
        try Self.applyTLS(reader, to: &transport.tls)
        self.transport = transport
    }

    private static func applyProxy(_ reader: SettingsReader, to transport: inout AsyncHTTPClientTransport.Configuration) throws(SessionConfigurationError) {
        guard let text = reader.string("proxy.url", isSecret: true) else { return }
        let proxy: AsyncHTTPClientTransport.Configuration.Proxy
        do {
            proxy = try AsyncHTTPClientTransport.Configuration.Proxy(url: text)
        } catch {
            // The URL may hold a password: the message does not repeat it.
            throw .invalid("proxy.url", expected: "a proxy URL: http://, https:// or socks5://, a host and a port")
        }
        transport.proxies = .all(proxy, bypass: try reader.strings("proxy.bypass") ?? [])
    }

    private static func applyTLS(_ reader: SettingsReader, to tls: inout AsyncHTTPClientTransport.Configuration.TLS) throws(SessionConfigurationError) {
        if let roots = reader.string("tls.trustRoots") {
            if roots == "system" {
                tls.trustRoots = .system
            } else {
                tls.trustRoots = .only([try certificates(at: "tls.trustRoots", reader)])
            }
        }
        if reader.has("tls.additionalTrustRoots") {
            tls.additionalTrustRoots = [try certificates(at: "tls.additionalTrustRoots", reader)]
        }
        let certificate = reader.string("tls.certificate")
        let privateKey = reader.string("tls.privateKey")
        if let certificate, let privateKey {
            do {
                tls.clientIdentity = try AsyncHTTPClientTransport.Configuration.ClientIdentity(certificateFile: certificate, privateKeyFile: privateKey)
            } catch {
                throw .unreadable("tls.certificate", because: "\(certificate) with the key at \(privateKey) is not a PEM certificate and its key")
            }
        } else if certificate != nil || privateKey != nil {
            throw .invalid(certificate == nil ? "tls.certificate" : "tls.privateKey", expected: "a PEM file's path, as tls.certificate and tls.privateKey go together")
        }
        if let version = reader.string("tls.minimumVersion") {
            switch version {
            case "1.2": tls.minimumVersion = .tls12
            case "1.3": tls.minimumVersion = .tls13
            default: throw .invalid("tls.minimumVersion", expected: "1.2 or 1.3")
            }
        }
    }

    private static func certificates(at key: String, _ reader: SettingsReader) throws(SessionConfigurationError) -> AsyncHTTPClientTransport.Configuration.PEMCertificates {
        guard let pem = try reader.fileContents(key) else { throw .invalid(key, expected: "a PEM file's path") }
        do {
            return try .init(pem: pem)
        } catch {
            throw .unreadable(key, because: "it holds no PEM certificate")
        }
    }
}
