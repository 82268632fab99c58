import ArgumentParser
import Foundation
import Jewzruxin
import Logging

extension RequestCommand {
    /// A session of the command's own, with the remembered `--session` file when one is given.
    /// It follows redirects only when asked (as httpie and curl do), so that a redirect is
    /// shown rather than silently taken; TLS, HTTP version and proxy are as the options say.
    /// When `parts` prints the request (H, B) or nothing is to be sent (`--offline`), the
    /// session's network middleware is a ``RequestEcho``, returned too; `--verbose` traces the
    /// stages with a ``StageTrace``.
    func makeSession(printing parts: String, placeholder: String?) throws -> (HTTPSession, SessionFile?, RequestEcho?, StageTrace?) {
        var configuration = HTTPSession.Configuration()
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
        configuration.followsRedirects = follow
        configuration.maximumRedirects = maxRedirects ?? configuration.maximumRedirects
        configuration.allowsInsecureRedirects = allowInsecureRedirects
        if let cache {
            do {
                guard cacheSize > 0 else { throw ValidationError("--cache-size takes a number of MiB above 0.") }
                configuration.cache = try HTTPCache(directory: URL(fileURLWithPath: cache), sizeLimit: cacheSize << 20)
            } catch let error as CacheError {
                printError(error.description)
                throw JewzExit.usage.code
            }
        }
        do {
            try configureTransport(&configuration.transport)
        } catch let error as HTTPError {
            printError(error.description)
            throw JewzExit.usage.code
        }
        try configureAuthentication(&configuration)
        let echo = RequestEcho.forPrinting(parts, offline: offline, placeholder: placeholder)
        configuration.networkMiddleware = (echo.map { [$0] } ?? []) + (log ? [HTTPLoggingMiddleware(logger: Self.exchangeLog)] : [])
        let trace = printing.verbose ? StageTrace() : nil
        configuration.eventMonitors = trace.map { [$0] } ?? []
        return (HTTPSession(configuration: configuration), remembered, echo, trace)
    }

    /// Where `--log` writes: standard error, a line each way per exchange, as `jewz: → GET …`.
    private static let exchangeLog = Logger(label: "jewz") { _ in ExchangeLogHandler() }

    /// `--auth` and `--auth-type`, as httpie reads them.
    private func configureAuthentication(_ configuration: inout HTTPSession.Configuration) throws {
        guard let auth else { return }
        let type = authType.lowercased()
        if type == "bearer" {
            configuration.requestProcessors = [BearerTokenProcessor(token: auth)]
            return
        }
        guard ["basic", "digest"].contains(type) else {
            throw ValidationError("--auth-type takes basic, digest or bearer.")
        }
        let (user, password) = try Self.credentials(auth)
        if type == "digest" {
            configuration.authentications = [DigestAuthentication(username: user, password: password)]
        } else {
            configuration.requestProcessors = [BasicAuthProcessor(username: user, password: password)]
        }
    }

    /// `USER:PASSWORD`, or `USER` with the password asked for on the terminal.
    private static func credentials(_ auth: String) throws -> (String, String) {
        if let colon = auth.firstIndex(of: ":") {
            return (String(auth[..<colon]), String(auth[auth.index(after: colon)...]))
        }
        guard isatty(STDIN_FILENO) == 1, let typed = getpass("jewz: password for \(auth): ") else {
            throw ValidationError("Give the password too: --auth \(auth):PASSWORD (it is asked for only on a terminal).")
        }
        return (auth, String(cString: typed))
    }

    /// `--verify`, `--pin`, `--cert`/`--cert-key`, `--http1`, `--unix-socket` and `--proxy`.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration`` for a file or URL that cannot be used.
    private func configureTransport(_ transport: inout AsyncHTTPClientTransport.Configuration) throws {
        switch verify.lowercased() {
        case "yes", "true": break
        case "no", "false": transport.tls.verification = .none
        default: transport.tls.additionalTrustRoots = [try .init(contentsOfFile: verify)]
        }
        if !pin.isEmpty {
            var pins: [String: [String]] = [:]
            for word in pin {
                guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                    throw HTTPError.invalidConfiguration("--pin takes HOST=sha256/…[,sha256/…], not '\(word)'")
                }
                pins[String(word[..<equals]), default: []] += word[word.index(after: equals)...].split(separator: ",").map(String.init)
            }
            transport.tls.pinning = try .init(pins, anchors: transport.tls.additionalTrustRoots)
        }
        if let cert {
            transport.tls.clientIdentity = try .init(certificateFile: cert, privateKeyFile: certKey ?? cert)
        } else if certKey != nil {
            throw HTTPError.invalidConfiguration("--cert-key goes with --cert, the certificate it belongs to")
        }
        if http1 { transport.httpVersion = .http1Only }
        transport.unixSocketPath = unixSocket
        switch proxy {
        case nil: break
        case "env"?:
            guard let proxies = try AsyncHTTPClientTransport.Configuration.Proxies.environment() else {
                throw HTTPError.invalidConfiguration("--proxy env: none of HTTP_PROXY, HTTPS_PROXY and ALL_PROXY is set")
            }
            transport.proxies = proxies
        case let url?:
            transport.proxies = .all(try .init(url: url))
        }
    }

    /// `--cache-policy`'s words for ``HTTPRequest/Caching/Policy``.
    static func cachePolicy(_ word: String) throws -> HTTPRequest.Caching.Policy {
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
