import Configuration
import Foundation
import Hummingbird
import JewzCache
import JewzConfiguration
import JewzHTTPCore
import JewzLifecycle
import Logging
import ServiceLifecycle

/// The gateway: a Hummingbird app that answers `/products/{id}` from two upstreams through one
/// session, in a `ServiceGroup` that shuts it down gracefully on SIGTERM or SIGINT.
///
/// Its settings come from the environment over a JSON file named by `GATEWAY_CONFIG` (polled
/// every second, so a change to the session's keys applies to the calls after it). The keys are
/// listed in README.md.
@main
struct Gateway {
    static func main() async {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        var logger = Logger(label: "gateway")
        logger.logLevel = .info
        do {
            try await serve(logger: logger)
        } catch {
            // A file it cannot read, a setting it cannot use, a port it cannot bind.
            logger.critical("\(error)")
            exit(1)
        }
    }

    /// Runs the gateway until the group's graceful shutdown ends it.
    static func serve(logger: Logger) async throws {
        let environment = EnvironmentVariablesProvider()
        var providers: [any ConfigProvider] = [environment]
        var file: ReloadingFileProvider<JSONSnapshot>?
        if let path = ProcessInfo.processInfo.environment["GATEWAY_CONFIG"] {
            let provider = try await ReloadingFileProvider<JSONSnapshot>(filePath: .init(path), pollInterval: .seconds(1))
            providers.append(provider)
            file = provider
        }
        let config = ConfigReader(providers: providers)
        let settings = try GatewaySettings(config)

        // The toolkit's keys under `http`: timeouts, retry, the circuit breaker, the rate limit…
        // over a base that keeps the upstreams' cacheable answers in memory.
        var base = HTTPSession.Configuration()
        base.logger = logger
        base.cache = HTTPCache()
        let session = HTTPSession(configuration: try .init(config: config.scoped(to: "http"), base: base))
        let upstreams = Upstreams(session: session, catalog: settings.catalog, prices: settings.prices)

        let app = Application(
            router: GatewayRouter.make(upstreams: upstreams),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: "jewzruxin-gateway"),
            onServerRunning: { channel in
                // The port, for whoever started the gateway with port 0.
                let line = "listening on \(channel.localAddress?.port ?? settings.port)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            logger: logger
        )

        // A group shuts its services down in reverse order: the app stops taking requests and
        // finishes those it has, then the session finishes its calls and closes its connections.
        var services: [any Service] = []
        if let file { services.append(file) }
        services.append(ConfigFollower(session: session, config: config.scoped(to: "http"), base: base))
        services.append(HTTPSessionService(session, gracePeriod: settings.gracePeriod))
        services.append(app)
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        )
        try await group.run()
        logger.info("stopped")
    }
}

/// `session.follow` as a service of the group, so that it ends with the group.
struct ConfigFollower: Service {
    let session: HTTPSession
    let config: ConfigReader
    let base: HTTPSession.Configuration

    func run() async throws {
        try await cancelWhenGracefulShutdown {
            try await session.follow(config, base: base)
        }
    }
}
