import ArgumentParser
import Foundation
import Jewzruxin
import Logging

extension RequestCommand {
    /// A session of the command's own, with the remembered `--session` file when one is given.
    /// It follows redirects only when asked (`--follow`, or a `--config` file's
    /// `redirects.follow`), as httpie and curl do, so that a redirect is shown rather than
    /// silently taken; TLS, HTTP version and proxy are as the options say.
    /// When `parts` prints the request (H, B) or nothing is to be sent (`--offline`), the
    /// session's network middleware is a ``RequestEcho``, returned too; `--verbose` traces the
    /// stages with a ``StageTrace``. The options go over `base` (`--config`).
    func makeSession(
        printing parts: String, placeholder: String?, host: String?, base: HTTPSession.Configuration
    ) throws -> (HTTPSession, SessionFile?, RequestEcho?, StageTrace?) {
        var configuration = base
        var remembered: SessionFile?
        if let session {
            do {
                let file = try SessionFile.load(session)
                configuration.cookieJar = HTTPCookieJar(restoring: file.cookies)
                remembered = file
            } catch {
                printError("the session file \(session) is not a session file jewz wrote; give another path")
                throw JewzExit.usage.code
            }
        }
        if let timeout, timeout > 0 {
            // --timeout is the one limit a person sets: connecting may take that long, no longer
            // (the connect timeout names the failure as a connection's), and so may a silence.
            let limit = Duration.milliseconds(Int(timeout * 1000))
            configuration.transport.timeouts.connect = limit
            configuration.transport.timeouts.idle = max(configuration.transport.timeouts.idle, limit)
        }
        if follow { configuration.followsRedirects = true }
        configuration.maximumRedirects = maxRedirects ?? configuration.maximumRedirects
        configuration.allowsInsecureRedirects = allowInsecureRedirects
        if let cache { configuration.cache = try diskCache(at: cache, mebibytes: cacheSize) }
        try connection.configure(&configuration, host: host)
        let echo = RequestEcho.forPrinting(parts, offline: offline, placeholder: placeholder, redactingAuthorization: oauth.oauth2 != nil || connection.readsCredentialsFromFile)
        // The connection's own (a signer) come first, so that what is printed and logged is the
        // request as it goes on the wire, signature included; the echo stops an offline one there.
        // --rate after the echo, so that a request not sent takes no turn, and before the log,
        // which then shows when each exchange went.
        let rate: [any HTTPMiddleware] = try resilience.sharedRateLimit().map { [$0] } ?? []
        configuration.networkMiddleware += (echo.map { [$0] } ?? []) + rate + (log ? [HTTPLoggingMiddleware(logger: Self.exchangeLog)] : [])
        let trace = printing.verbose ? StageTrace() : nil
        configuration.eventMonitors = trace.map { [$0] } ?? []
        return (HTTPSession(configuration: configuration), remembered, echo, trace)
    }

    /// Where `--log` writes: standard error, a line each way per exchange, as `jewz: → GET …`.
    private static let exchangeLog = Logger(label: "jewz") { _ in ExchangeLogHandler() }

    /// `--cache-policy`'s words for ``HTTPRequestOptions/Caching-swift.struct/Policy``.
    static func cachePolicy(_ word: String) throws -> HTTPRequestOptions.Caching.Policy {
        switch word.lowercased() {
        case "standard": .standard
        case "reload": .reloadIgnoringCache
        case "revalidate": .revalidate
        case "stale-ok": .returnCacheElseLoad
        case "offline": .onlyIfCached
        default: throw ValidationError("--cache-policy takes standard, reload, revalidate, stale-ok or offline.")
        }
    }

    /// What `-v` says of a response the cache answered; `nil` for one from the network.
    static func origin(of response: HTTPResponse) -> String? {
        let age = response.headers["Age"].map { ", \($0) s old" } ?? ""
        switch response.source {
        case .network: return nil
        case .cache: return "answered from the cache\(age), without the network"
        case .revalidated: return "answered from the cache, confirmed current by the server (304)"
        case .stale: return "answered from the cache with a stale copy\(age)"
        }
    }
}
