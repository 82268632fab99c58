import ArgumentParser
import Configuration
import Foundation
import JewzConfiguration
import Jewzruxin

/// `--config FILE`: the session's settings from a JSON or YAML file, with `JEWZ_…` environment
/// variables over them — the keys a service's configuration takes (JewzConfiguration).
struct ConfigFileOptions: ParsableArguments {
    @Option(help: "Read the session's settings from a JSON or YAML file: timeout.connect, retry.maximumCount, proxy.url, tls.trustRoots, circuitBreaker.*, rateLimit.*, hedging.* … (the keys of JewzConfiguration); JEWZ_ environment variables go over them (JEWZ_TIMEOUT_CONNECT=2). The options given go over both.")
    var config: String?

    /// The configuration the command's options start from: the file's and the environment's
    /// settings over the command's `defaults`, or the defaults alone without `--config`.
    ///
    /// - Throws: the usage exit status, after saying which file or key is wrong.
    func baseConfiguration(over defaults: HTTPSession.Configuration = .init()) async throws -> HTTPSession.Configuration {
        guard let config else { return defaults }
        let isYAML = config.hasSuffix(".yaml") || config.hasSuffix(".yml")
        let file: any ConfigProvider
        do {
            if isYAML {
                file = try await FileProvider<YAMLSnapshot>(filePath: .init(config))
            } else {
                file = try await FileProvider<JSONSnapshot>(filePath: .init(config))
            }
        } catch {
            printError("the configuration file \(config) cannot be read as \(isYAML ? "YAML" : "JSON"): \(error)")
            throw JewzExit.usage.code
        }
        // JEWZ_TIMEOUT_CONNECT is timeout.connect: the prefix keeps jewz's apart from others'.
        var environment: [String: String] = [:]
        for (name, value) in ProcessInfo.processInfo.environment where name.hasPrefix("JEWZ_") {
            environment[String(name.dropFirst(5))] = value
        }
        let reader = ConfigReader(providers: [EnvironmentVariablesProvider(environmentVariables: environment), file])
        do {
            return try HTTPSession.Configuration(config: reader, base: defaults)
        } catch {
            printError("\(error)")
            throw JewzExit.usage.code
        }
    }
}
