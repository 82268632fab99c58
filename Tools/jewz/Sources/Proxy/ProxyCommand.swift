import ArgumentParser
import Dispatch
import Foundation
import Jewzruxin

/// `jewz proxy`: a local HTTP proxy whose requests go out through an `HTTPSession`, so any
/// program gets Jewzruxin's cache, retries, credentials, TLS settings, recording and replay.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy", abstract: "Run a local HTTP proxy: reverse (--upstream) or forward (curl -x), recording, replaying, caching.",
        discussion: """
            jewz proxy --port 8080 --upstream https://api.example.com --record api.har
                then: curl http://127.0.0.1:8080/users/42
            jewz proxy --port 8080 --replay api.har                  answers from the archive, the origin not needed
            jewz proxy --port 8080 --upstream URL --cache ~/.cache/jewz-proxy   a shared cache (RFC 9111)
            jewz proxy --port 3128                                   then: curl -x http://127.0.0.1:3128 http://example.com/
            jewz proxy --port 8080 --upstream URL --web              watch the traffic at http://127.0.0.1:8081/
            HTTPS through a forward proxy goes in CONNECT tunnels, passed on untouched.
            """)

    @Option(help: "The port to listen on; 0 picks a free one (printed on start).")
    var port: Int = 8080

    @Option(help: "The address to listen on.")
    var bind: String = "127.0.0.1"

    @Option(help: "Forward every request to this origin (a reverse proxy in front of it); without it, a forward proxy for absolute http:// URLs, or with --replay the one origin the archive holds.")
    var upstream: String?

    @Option(help: "Record every exchange that goes upstream in this HAR 1.2 file (credentials redacted).")
    var record: String?

    @Option(help: "Answer from this HAR file instead of the network; requests it lacks get a 502, or go upstream with --fallback.")
    var replay: String?

    @Flag(help: "With --replay: send requests the archive lacks on to the network.")
    var fallback = false

    @Option(help: "Keep answers in a shared HTTP cache in this directory (RFC 9111's shared-cache rules).")
    var cache: String?

    @Option(help: "With --cache: the most the directory may hold, in MiB (default 1024).")
    var cacheSize: Int = 1024

    @Option(help: "Retry a failed upstream request up to N times (idempotent requests; default 3).")
    var retries: Int?

    @Flag(help: "Show every exchange live in a browser page: the list, each opened (headers, bodies, timings), a waterfall, HAR export, send again.")
    var web = false

    @Option(help: "With --web: the page's port; 0 picks a free one (printed on start).")
    var webPort: Int = 8081

    @Option(help: "With --web: the address the page listens on (only this machine by default).")
    var webBind: String = "127.0.0.1"

    @Option(help: "With --web: how many of the last exchanges the page keeps.")
    var webKeep: Int = 500

    @Option(help: "With --web: how many KiB of each body the page keeps (the rest is counted).")
    var webBodyLimit: Int = 1024

    @OptionGroup var connection: ConnectionOptions

    func run() async throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535.") }
        if fallback, replay == nil { throw ValidationError("--fallback goes with --replay.") }
        guard (0...65535).contains(webPort) else { throw ValidationError("--web-port must be 0...65535.") }
        guard webKeep > 0, webBodyLimit >= 0 else { throw ValidationError("--web-keep takes 1 or more, --web-body-limit 0 or more.") }
        let traffic = web ? TrafficLog(capacity: webKeep, bodyLimit: webBodyLimit << 10) : nil
        let archive = try replay.map(Self.readArchive)
        let origins = archive.map(Self.origins(in:)) ?? []
        let mode: ProxyForwarder.Mode
        var target: String
        var pathAdvice: String?
        if let upstream {
            guard let url = URL(string: upstream), url.isSendableHTTP, url.scheme.map({ ["http", "https"].contains($0.lowercased()) }) == true else {
                throw ValidationError("--upstream takes an http:// or https:// URL.")
            }
            mode = .reverse(url)
            target = "in front of \(upstream)"
        } else if let replay, origins.count == 1, let origin = origins.first {
            // A replayed archive of one origin needs no --upstream: paths are under that origin.
            mode = .reverse(origin)
            target = "in front of \(origin.absoluteString) (the origin \(replay) holds)"
        } else {
            mode = .forward
            target = "forwarding absolute http:// URLs and CONNECT tunnels"
            if let replay {
                let advice = origins.isEmpty
                    ? "\(replay) holds no exchanges"
                    : "\(replay) holds \(origins.count) origins (\(origins.map(\.absoluteString).joined(separator: ", "))): add --upstream with the one paths are under"
                pathAdvice = advice
                target += "; for paths, \(advice)"
            }
        }
        let session = try makeSession(replaying: archive, watched: traffic != nil)
        let server: ProxyServer
        do {
            var forwarder = ProxyForwarder(session: session, mode: mode, replaying: replay != nil, pathAdvice: pathAdvice)
            forwarder.traffic = traffic
            server = try await ProxyServer.start(host: bind, port: port, forwarder: forwarder)
        } catch {
            printError("cannot listen on \(bind):\(port): \(error)")
            throw JewzExit.network.code
        }
        // Scripts read the port from this line, often through a pipe: write it unbuffered.
        printLine("jewz proxy listening on http://\(bind):\(server.port), \(target)")
        var page: (server: TrafficServer, task: Task<Void, Never>)?
        if let traffic { page = try await startPage(traffic, proxyPort: server.port, mode: mode) }
        let signals = Self.stopping(server)
        try await server.waitUntilClosed()
        signals.forEach { $0.cancel() }
        traffic?.close()
        if let page {
            // A page left open keeps its connection: the server's task ends those with it.
            await page.server.close()
            page.task.cancel()
            await page.task.value
        }
        try? await session.shutdown()
    }

    /// Starts the traffic view's page beside the proxy on `proxyPort`, and says where it is.
    private func startPage(_ log: TrafficLog, proxyPort: Int, mode: ProxyForwarder.Mode) async throws -> (server: TrafficServer, task: Task<Void, Never>) {
        let server: TrafficServer
        do {
            server = try await TrafficServer.start(host: webBind, port: webPort)
        } catch {
            printError("cannot listen on \(webBind):\(webPort) for the traffic view: \(error)")
            throw JewzExit.network.code
        }
        var upstream: URL?
        if case .reverse(let origin) = mode { upstream = origin }
        let wildcards = ["0.0.0.0": "127.0.0.1", "::": "::1"]
        let replay = TrafficReplay(host: wildcards[bind] ?? bind, port: proxyPort, upstream: upstream)
        let routes = TrafficRoutes(log: log, replay: replay, bind: webBind, port: server.port)
        let task = Task { await server.run(routes) }
        let host = webBind.contains(":") ? "[\(webBind)]" : webBind
        printLine("jewz proxy: the traffic view is at http://\(host):\(server.port)/")
        return (server, task)
    }

    /// The session requests go out through: every status passed on as it is, redirects and
    /// bodies untouched (no content decoding, no cookie jar), the cache shared, the recorder and
    /// the archive as asked, the connection options as for a request.
    private func makeSession(replaying archive: HTTPArchive?, watched: Bool) throws -> HTTPSession {
        var configuration = HTTPSession.Configuration()
        configuration.followsRedirects = false
        configuration.shouldTreatStatusCodeAsFailure = { _ in false }
        configuration.contentCodings = ContentCodingRegistry()
        configuration.processorRegistry = ProcessorRegistry()
        configuration.cookieJar = nil
        if watched { configuration.eventMonitors.append(TrafficMonitor()) }
        if let retries {
            guard retries >= 0 else { throw ValidationError("--retries takes 0 or more.") }
            configuration.retryPolicy.maximumRetryCount = retries
        }
        try connection.configure(&configuration)
        if let cache { configuration.cache = try diskCache(at: cache, mebibytes: cacheSize, shared: true) }
        do {
            if let record { configuration.networkMiddleware.insert(try HARRecorder(writingTo: URL(fileURLWithPath: record)), at: 0) }
            guard let archive else { return HTTPSession(configuration: configuration) }
            let network = fallback ? AsyncHTTPClientTransport(configuration: configuration.transport) : nil
            configuration.customTransport = HARReplayTransport(archive: archive, fallback: network)
            return HTTPSession(configuration: configuration)
        } catch {
            printError(error.description)
            throw JewzExit.usage.code
        }
    }

    private static func readArchive(_ path: String) throws -> HTTPArchive {
        do {
            return try HTTPArchive(contentsOf: URL(fileURLWithPath: path))
        } catch {
            printError(error.description)
            throw JewzExit.usage.code
        }
    }

    /// The origins (scheme, host and port) the archive's requests went to, in the order first met.
    private static func origins(in archive: HTTPArchive) -> [URL] {
        var seen = Set<String>()
        return archive.log.entries.compactMap { entry in
            guard var parts = URLComponents(string: entry.request.url), parts.host != nil else { return nil }
            parts.path = ""
            parts.query = nil
            parts.fragment = nil
            parts.user = nil
            parts.password = nil
            guard let origin = parts.url, seen.insert(origin.absoluteString.lowercased()).inserted else { return nil }
            return origin
        }
    }

    /// SIGINT and SIGTERM close the server, so that the command ends as any other does.
    private static func stopping(_ server: ProxyServer) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { Task { await server.close() } }
            source.resume()
            return source
        }
    }
}
