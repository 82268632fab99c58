import ArgumentParser
import Foundation
import Jewzruxin

/// `jewz [METHOD] URL [ITEM…]`: sends one request the way httpie does and prints the exchange.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Send a request: jewz [METHOD] URL [ITEM ...].",
        discussion: """
            Items: Header:Value sets a header, name==value adds a query parameter, name=value adds a \
            string field and name:=json a JSON field to a JSON body (the method then defaults to POST); \
            name@path adds a file and sends the fields as multipart/form-data.

            jewz :8000/hello/                             GET localhost:8000/hello/
            jewz -v POST :8000/dumpupload/ name=Ada age:=36   JSON; -v shows both sides
            jewz --form :8000/dumpupload/ q="swift nio"   urlencoded
            jewz :8000/dumpupload/ file@photo.png         multipart, streamed
            jewz -d :8000/download/1000000                to a file, with progress
            jewz -S :8000/events/feed?count=5             Server-Sent Events as they arrive, resumed
            jewz --unix-socket /run/app.sock http://app/status
            jewz -a ada:pw --auth-type digest :8000/digest-auth/auth/ada/pw/MD5
            jewz --oauth2 client-credentials --issuer :8000 --client jewz-confidential:s3cret :8000/oauth/resource
            """)

    @OptionGroup var printing: PrintOptions

    @OptionGroup var sending: BodyOptions

    @OptionGroup var resilience: ResilienceOptions

    @OptionGroup var streaming: StreamOptions

    @Flag(help: "Print the request that would be sent, and send nothing.")
    var offline = false

    @Option(help: "With --aws-sigv4: print a presigned URL that performs this request for SECONDS (at most 604800), for anyone who has it (curl, a browser), and send nothing.")
    var presign: Int?

    @Flag(help: "Log each exchange on standard error as it goes on the wire (every redirect hop and retry): method, URL, status and time, credentials redacted.")
    var log = false

    @Option(help: "Seconds the whole exchange may take.")
    var timeout: Double?

    @Flag(name: [.customShort("F"), .long], help: "Follow redirects (otherwise the redirect itself is printed).")
    var follow = false

    @Option(help: "With --follow, the most redirects followed (default 10).")
    var maxRedirects: Int?

    @Flag(help: "Follow a redirect from https to http (refused by default).")
    var allowInsecureRedirects = false

    @Option(help: "Keep headers and cookies in this file: the headers given here are remembered, cookies sent and updated from the response (created if missing).")
    var session: String?

    @OptionGroup var connection: ConnectionOptions

    @OptionGroup var configFile: ConfigFileOptions

    @OptionGroup(title: "OAuth 2.0") var oauth: OAuthOptions

    @Option(help: "Keep responses in an HTTP cache in this directory (RFC 9111): a fresh one answers the next identical request without the network, a stale one is revalidated. Downloads (--output) are stored and given back from disk, never held in memory.")
    var cache: String?

    @Option(help: "With --cache: the most the cache directory may hold, in MiB (default 1024); the least recently used entries go first.")
    var cacheSize: Int = 1024

    @Option(help: "With --cache: keep this response this many seconds whatever its headers say (0: never store it).")
    var cacheFor: Double?

    @Option(help: "With --cache: standard (the default), reload (ask the network, store the answer), revalidate (ask the server whether the stored copy is current), stale-ok (a stored copy even when stale) or offline (only the cache; 504 when absent).")
    var cachePolicy = "standard"

    @OptionGroup var downloading: DownloadOptions


    @Option(name: [.customShort("X"), .customLong("method")], help: "The request method, any token, as curl's -X; the first word is then the URL.")
    var explicitMethod: String?

    @Argument(help: "[METHOD] URL [ITEM ...]")
    var words: [String] = []

    func run() async throws {
        let (method, urlString, items) = try parseWords()
        let parts = try printing.parts()
        var parameters: [(String, QueryValue)] = []
        var headers = HTTPHeaderFields()
        for item in items {
            switch item {
            case .header(let name, let value): headers.add(value, for: name)
            case .query(let name, let value): parameters.append((name, QueryValue(value)))
            default: break
            }
        }
        let body: OutgoingBody?
        do {
            body = try sending.body(for: items, headers: &headers)
        } catch RequestItemError.unreadableFile(let path) {
            // The arguments are fine; the file is not: a runtime failure, without usage text.
            printError(RequestItemError.unreadableFile(path: path).description)
            throw JewzExit.usage.code
        } catch let error as RequestItemError {
            throw ValidationError(error.description)
        }
        if let maxRedirects, maxRedirects < 0 { throw ValidationError("--max-redirects takes 0 or more.") }
        try streaming.validate(savesToFile: downloading.savesToFile, offline: offline)
        let (session, remembered, echo, trace) = try makeSession(
            printing: parts, placeholder: body?.placeholder, host: URL(string: Self.normalizedURL(urlString))?.host(),
            // A redirect is shown rather than taken unless --follow or the file says otherwise.
            base: await configFile.baseConfiguration(over: HTTPSession.Configuration { $0.followsRedirects = false }))
        let tokens = try await oauth.authentication(connection: connection)
        defer { if let tokens { Task { try? await tokens.session.shutdown() } } }
        if let tokens { try session.update { $0.authentications = [tokens.authentication] } }
        let cycle: HTTPCycle
        do {
            cycle = try HTTPCycle(
                urlString, method: method ?? (body == nil ? .get : .post),
                parameters: QueryParameters(parameters), session: session)
        } catch let error as HTTPError {
            throw ValidationError(error.description)
        }
        body?.install(on: cycle, headers: &headers)
        let saved = DownloadOptions.Saved()
        if let download = try downloading.makeDownload(saved: saved) { cycle.delivery = .download(download) }
        let given = headers
        headers.addMissing(from: remembered.map { HTTPHeaderFields($0.headers.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }) } ?? [:])
        cycle.request.headers = headers
        cycle.options.timeoutForResource = timeout.map { .milliseconds(Int($0 * 1000)) }
        cycle.options.caching.policy = try Self.cachePolicy(cachePolicy)
        if let cacheFor {
            guard cacheFor >= 0 else { throw ValidationError("--cache-for takes 0 or more seconds.") }
            cycle.options.caching.lifetime = .milliseconds(Int(cacheFor * 1000))
        }
        if let presign {
            guard presign > 0, let signer = session.configuration.networkMiddleware.lazy.compactMap({ $0 as? AWSSignatureV4 }).first else {
                throw ValidationError("--presign takes a number of seconds, with --aws-sigv4.")
            }
            printLine(signer.presignedURL(for: cycle.request, lifetime: .seconds(presign)).absoluteString)
            try? await session.shutdown()
            return
        }

        try resilience.apply(to: cycle, timeout: timeout)
        if streaming.stream { return try await stream(cycle, session: session, parts: parts, trace: trace) }

        var failure: HTTPError?
        let started = ContinuousClock.now
        do {
            try await cycle.start()
        } catch let error as HTTPError {
            failure = error
        }
        let elapsed = ContinuousClock.now - started
        try? await session.shutdown()
        // The cache answered, so nothing went out: the request as the command built it is
        // what there is to show.
        if let echo, !echo.hasEchoed, failure == nil { echo.echo(cycle.request) }
        if offline {
            guard let failure, failure.code != .cancelled else { return }
            throw Self.exitStatus(for: failure, response: nil, timeout: timeout).code
        }
        if let remembered, let path = self.session {
            let file = SessionFile(headers: remembered.merging(given), cookies: (session.configuration.cookieJar as? HTTPCookieJar)?.all ?? [])
            do { try file.save(to: path) } catch { printError("the session could not be saved to \(path): \(error.localizedDescription)") }
        }
        if let response = cycle.response {
            if printing.verbose, let origin = Self.origin(of: response) { printError(origin) }
            if let trace {
                printError(trace.line)
                trace.attemptLines.forEach(printError)
            }
            if parts.contains("h") { ExchangePrinter.printResponseHead(response) }
            if parts.contains("m") { ExchangePrinter.printMetadata(response, request: cycle.request, elapsed: elapsed) }
            if downloading.savesToFile, failure == nil {
                printError("saved the body to \(saved.path.withLock { $0 } ?? "?")")
            } else if parts.contains("b") {
                ExchangePrinter.printResponseBody(response, parsed: printing.parsed)
            }
        }
        let hint = downloading.savesToFile ? downloading.settle(cycle, failed: failure != nil) : nil
        guard let failure else { return }
        let status = Self.exitStatus(for: failure, response: cycle.response, timeout: timeout)
        if let hint { printError(hint) }
        throw status.code
    }

    /// Reports a failure on one line and returns the exit status it stands for: 4 and 5 for
    /// failing statuses, 2 for what the network or the server did wrong, 0 for a body the
    /// registry's processor could not parse on a successful status (the raw body was printed),
    /// 1 for what the user gave (a URL, a header, a file). What to do names jewz's options.
    ///
    /// - Parameter timeout: the `--timeout` given, if any.
    static func exitStatus(for failure: HTTPError, response: HTTPResponse?, timeout: Double? = nil) -> JewzExit {
        // What happened on the network, with what to do in jewz's terms.
        func network(_ advice: String) -> JewzExit {
            printError(failure.networkSummary.map { "\($0) \(advice)" } ?? failure.description)
            return .network
        }
        switch failure.code {
        case .timedOut:
            let seconds = timeout.map { $0 == 1 ? "1 second" : "\($0.formatted()) seconds" }
            return network(seconds.map { "--timeout allowed \($0); raise it if the server is slow." }
                ?? "Give --timeout SECONDS to wait longer if the server is slow.")
        case .certificateRejected:
            return network("Trust its authority with --verify CA.pem, or, for a test server only, --verify no.")
        case .tlsHandshakeFailed:
            return network("Check the TLS versions both sides accept, and whether the server wants a client certificate (--cert).")
        case .proxyAuthenticationRequired:
            printError("The proxy answered 407 Proxy Authentication Required: give its user and password in --proxy http://user:password@host:port.")
            return .network
        case .statusCode:
            let code = failure.statusCode ?? 0
            printError("the server answered \(code) \(HTTPResponse.reasonPhrase(for: code))")
            return code >= 500 ? .serverError : .clientError
        case .insecureRedirect:
            // The library's message names its configuration; the command's option is what to change here.
            printError("the server redirected from https to http, which jewz does not follow unless --allow-insecure-redirects is given")
            return .network
        case .responseTooLarge:
            printError("the response body is larger than jewz holds in memory; save it to a file with --output FILE")
            return .network
        case .processor where response != nil:
            printError("warning: the body was printed as it came: \(failure.description)")
            return .success
        case .authentication:
            printError(failure.description)
            return (failure.underlying as? AuthError).map(AuthCommand.exit(for:)) ?? .network
        case .invalidURL, .invalidHeader, .unsupportedRequestObject, .unreadableBody, .bodyNotReplayable, .downloadFile, .processor,
            .invalidConfiguration:
            printError(failure.description)
            return .usage
        default:
            printError(failure.description)
            return .network
        }
    }

    /// Splits the words into method, URL and items.
    private func parseWords() throws -> (HTTPMethod?, String, [RequestItem]) {
        var rest = words[...]
        guard let first = rest.popFirst() else { throw ValidationError("Give a URL: jewz [METHOD] URL [ITEM ...].") }
        var method: HTTPMethod?
        var url = first
        if let explicitMethod {
            guard explicitMethod.isHTTPToken else { throw ValidationError("-X takes a method, a token such as PURGE or M-SEARCH.") }
            method = HTTPMethod(rawValue: explicitMethod)
        } else if let second = rest.first, Self.isMethod(first, before: second) {
            method = HTTPMethod(rawValue: first.uppercased())
            url = second
            rest = rest.dropFirst()
        }
        let items = try rest.map { word in
            do { return try RequestItem(word) } catch let error as RequestItemError { throw ValidationError(error.description) }
        }
        return (method, Self.normalizedURL(url), items)
    }

    /// Whether the first word is a method: a standard one or an all-capitals word always is
    /// (`PUT localhost:3000` even though `localhost:3000` reads like a header item); another word of
    /// letters is one when the next word is not an item (`jewz localhost a=1` is a URL and an item);
    /// any other RFC 9110 token (`M-SEARCH`) is one when the next word is a URL.
    static func isMethod(_ word: String, before next: String) -> Bool {
        guard word.isHTTPToken else { return false }
        if !word.allSatisfy({ $0.isASCII && $0.isLetter }) { return isURL(next) }
        let standard: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]
        if standard.contains(word.uppercased()) || word.allSatisfy(\.isUppercase) { return true }
        return (try? RequestItem(next)) == nil
    }

    /// Whether a word reads as a URL rather than an item: it has a scheme, is httpie's `:port`
    /// shorthand, or is a host name with a path or a port.
    private static func isURL(_ word: String) -> Bool {
        if word.contains("://") || word.hasPrefix(":") { return true }
        return (try? RequestItem(word)) == nil && (word.contains("/") || word.contains(".") || word.hasPrefix("localhost"))
    }

    /// httpie's shorthands: `:3000/x` is localhost, and a URL without scheme is http.
    static func normalizedURL(_ url: String, defaultScheme: String = "http") -> String {
        if url.hasPrefix(":") { return "http://localhost" + url }
        if url.contains("://") { return url }
        return defaultScheme + "://" + url
    }
}
