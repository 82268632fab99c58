import Configuration
import JewzHTTPCore
import Logging

extension HTTPSession {
    /// Follows `config` as its providers change — a `ReloadingFileProvider` when its file does —
    /// until the task is cancelled. Each change is read onto `base` as
    /// `HTTPSession.Configuration(config:base:)` reads it, and
    /// applied with ``/JewzHTTPCore/HTTPSession/update(_:)`` to the calls that start after it:
    ///
    /// - the session's logger says which keys changed, at notice level (a secret's name, never
    ///   its value);
    /// - the transport is made anew only when a transport key changed (calls under way finish on
    ///   the old one), the cache only when its keys did, and a resilience stage only when its
    ///   settings did (an open circuit stays open across an unrelated change);
    /// - a change with a value that cannot be used is logged at error level, naming the key, and
    ///   leaves the session as it was.
    ///
    /// Start following as soon as the session is made from the same `config`: a change to a
    /// transport or cache key made before it starts applies with the next change to one of them.
    ///
    /// ```swift
    /// let file = try await ReloadingFileProvider<JSONSnapshot>(filePath: "/etc/gateway/http.json")
    /// let config = ConfigReader(providers: [EnvironmentVariablesProvider(), file])
    /// let session = HTTPSession(configuration: try .init(config: config))
    /// async let following: Void = session.follow(config)   // beside the ServiceGroup running `file`
    /// // … the service runs; when it stops:
    /// try await following
    /// ```
    ///
    /// - Throws: `CancellationError` or what the providers throw while they are watched.
    public func follow(_ config: ConfigReader, base: Configuration = .init()) async throws {
        let start = SettingsReader(snapshot: config.snapshot())
        var previous = Self.values(of: start)
        var stages = try? ResilienceSettings(start).stages(reusing: nil).adopting(configuration.networkMiddleware)
        // What changed since the session was made, but for the transport and cache, applies now.
        do {
            stages = try apply(start, onto: base, changed: [], stages: stages)
        } catch {
            configuration.logger.error("configuration not applied: \(error)")
        }
        configuration.logger.debug("following the configuration's changes")
        try await config.watchSnapshot { updates in
            for await snapshot in updates {
                let reader = SettingsReader(snapshot: snapshot)
                let values = Self.values(of: reader)
                let changed = values.keys.filter { values[$0] != previous[$0] }.sorted()
                guard !changed.isEmpty else { continue }
                do {
                    stages = try apply(reader, onto: base, changed: Set(changed), stages: stages)
                    previous = values
                    configuration.logger.notice("configuration changed: \(changed.joined(separator: ", "))")
                } catch {
                    configuration.logger.error("configuration change not applied: \(error)")
                }
            }
        }
    }

    /// Applies the keys `reader` has, on `base`, to the session: the fields those keys set, the
    /// transport and cache only when theirs are among `changed`.
    private func apply(
        _ reader: SettingsReader, onto base: Configuration, changed: Set<String>, stages: ResilienceStages?
    ) throws -> ResilienceStages {
        var fresh = base
        try fresh.apply(reader)
        let made = try ResilienceSettings(reader).stages(reusing: stages)
        let transportChanged = !changed.isDisjoint(with: Configuration.transportKeys)
        let cacheChanged = changed.contains { $0.hasPrefix("cache.") }
        try update { current in
            current.baseURL = fresh.baseURL
            current.additionalHeaders = fresh.additionalHeaders
            current.timeoutForResource = fresh.timeoutForResource
            current.retryPolicy = fresh.retryPolicy
            current.followsRedirects = fresh.followsRedirects
            current.maximumRedirects = fresh.maximumRedirects
            current.maximumActiveRequests = fresh.maximumActiveRequests
            current.maximumResponseBodySize = fresh.maximumResponseBodySize
            current.networkMiddleware = made.middleware + base.networkMiddleware
            if cacheChanged { current.cache = fresh.cache }
            if transportChanged { current.transport = fresh.transport }
        }
        return made
    }

    /// The text of every key a configuration reads that the providers have, secrets too: they
    /// are compared, never shown.
    private static func values(of reader: SettingsReader) -> [String: String] {
        var values: [String: String] = [:]
        for (key, isSecret) in Configuration.readKeys {
            values[key] = reader.text(key, isSecret: isSecret)
        }
        return values
    }
}
