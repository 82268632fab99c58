import ArgumentParser
import Crypto
import Foundation
import Jewzruxin

/// `--oauth2 GRANT` and the authorization server it asks: the request's bearer token comes from
/// an OAuth 2.0 grant, kept between runs for the grants that need a user.
struct OAuthOptions: ParsableArguments {
    @Option(help: "Authorize with an OAuth 2.0 token: client-credentials (a token for --client itself), device or browser (a user signs in; the token is kept and refreshed between runs), or stored (only the token `jewz auth login` kept).")
    var oauth2: String?

    @Option(help: "OAuth: the authorization server, whose endpoints are read from its metadata (RFC 8414).")
    var issuer: String?

    @OptionGroup var client: OAuthClientOptions

    /// The authentication `--oauth2` describes, its client talking through a session of its own
    /// that reaches servers as `connection` says (so that `-v`, `--log` and `--offline` never
    /// show or fake a token request); `nil` without `--oauth2`.
    ///
    /// - Throws: a `ValidationError` for options that do not fit; the exit status after saying
    ///   why when the server's metadata cannot be read or a key cannot be used.
    func authentication(connection: ConnectionOptions) async throws -> (authentication: OAuth2Authentication, session: HTTPSession)? {
        guard let oauth2 else {
            guard issuer == nil, client.isEmpty else {
                throw ValidationError("--issuer, --token-url, --device-url, --client, --client-key, --scope and --token-store go with --oauth2.")
            }
            return nil
        }
        guard connection.auth == nil, connection.awsSigv4 == nil else {
            throw ValidationError("--oauth2 gives the request its credentials: leave out --auth and --aws-sigv4.")
        }
        let session = try connection.makeSession()
        let oauth = try await client.makeClient(issuer: issuer, using: session)
        let scopes = client.scopes
        let grant: OAuth2Grant
        switch oauth2.lowercased() {
        case "client-credentials": grant = .clientCredentials(scopes: scopes)
        case "device": grant = .deviceAuthorization(scopes: scopes, present: OAuthClientOptions.present)
        case "browser": grant = .authorizationCode(scopes: scopes, open: OAuthClientOptions.open)
        case "stored": grant = .storedOnly
        default: throw ValidationError("--oauth2 takes client-credentials, device, browser or stored.")
        }
        let kept = oauth2.lowercased() != "client-credentials" || client.tokenStore != nil
        let store: any OAuth2TokenStore = kept ? try client.fileStore(for: oauth) : OAuth2MemoryTokenStore()
        return (OAuth2Authentication(client: oauth, grant: grant, store: store), session)
    }
}

/// The OAuth 2.0 client jewz acts as, the token endpoint it asks and where it keeps tokens:
/// shared by `--oauth2` and `jewz auth`.
struct OAuthClientOptions: ParsableArguments {
    @Option(help: "OAuth: the token endpoint, when the server publishes no metadata.")
    var tokenURL: String?

    @Option(help: "OAuth: the device authorization endpoint, when the server's metadata does not name it.")
    var deviceURL: String?

    @Option(help: "OAuth: ID[:SECRET], the client; its secret goes in a Basic header unless --client-auth post. A secret typed here stays in shell history: prefer --client-secret-file or JEWZ_OAUTH_CLIENT_SECRET.")
    var client: String?

    @Option(help: "OAuth: a file holding the client's secret (its first line), readable by its owner alone.")
    var clientSecretFile: String?

    @Option(help: "OAuth: basic (the default with a secret) or post, where the client's secret goes.")
    var clientAuth = "basic"

    @Option(help: "OAuth: a private key (PEM, EC P-256 or RSA) the client signs its token requests with (private_key_jwt), instead of a secret; readable by its owner alone.")
    var clientKey: String?

    @Option(help: "OAuth: a scope to ask for (repeat it, or separate scopes with spaces).")
    var scope: [String] = []

    @Option(help: "OAuth: the file the token is kept in (default: one per server and client under ~/.config/jewz/oauth, mode 0600).")
    var tokenStore: String?

    var scopes: [String] { scope.flatMap { $0.split(separator: " ").map(String.init) } }

    /// Whether none of these options was given.
    var isEmpty: Bool {
        tokenURL == nil && deviceURL == nil && client == nil && clientSecretFile == nil && clientKey == nil && scope.isEmpty && tokenStore == nil
    }

    /// The client of `--client`, `--client-auth`/`--client-key`, at `--issuer`'s or `--token-url`'s server.
    func makeClient(issuer: String?, using session: HTTPSession) async throws -> OAuth2Client {
        guard let client, !client.isEmpty else { throw ValidationError("OAuth needs --client ID[:SECRET].") }
        let id = client.split(separator: ":", maxSplits: 1).first.map(String.init) ?? client
        let typed = client.firstIndex(of: ":").map { String(client[client.index(after: $0)...]) }
        let secret = try typed ?? clientSecretFile.map { try SecretFile.firstLine(of: $0, option: "--client-secret-file") }
            ?? (clientKey == nil ? ProcessInfo.processInfo.environment["JEWZ_OAUTH_CLIENT_SECRET"].flatMap { $0.isEmpty ? nil : $0 } : nil)
        let authentication: OAuth2ClientAuthentication
        do {
            switch (secret, clientKey, clientAuth.lowercased()) {
            case (nil, nil, _): authentication = .none
            case (let secret?, nil, "basic"): authentication = .secretBasic(secret)
            case (let secret?, nil, "post"): authentication = .secretPost(secret)
            case (nil, let path?, _): authentication = try .privateKeyJWT(pemRepresentation: try SecretFile.contents(of: path, option: "--client-key"))
            case (_, nil, _): throw ValidationError("--client-auth takes basic or post.")
            case (_?, _?, _): throw ValidationError("Give the client a secret or a key (--client-key), not both.")
            }
        } catch let error as AuthError {
            printError(error.description)
            throw JewzExit.usage.code
        }
        var endpoints = try await endpoints(issuer: issuer, using: session)
        if let deviceURL {
            guard let url = Self.endpointURL(deviceURL) else { throw ValidationError("--device-url takes a URL.") }
            endpoints.deviceAuthorization = url
        }
        return OAuth2Client(endpoints: endpoints, clientID: id, authentication: authentication, session: session)
    }

    private func endpoints(issuer: String?, using session: HTTPSession) async throws -> OAuth2Endpoints {
        switch (issuer.flatMap(Self.endpointURL), tokenURL.flatMap(Self.endpointURL)) {
        case (let issuer?, nil):
            do {
                return try await OAuth2Endpoints.discover(issuer: issuer, using: session)
            } catch let error as AuthError {
                printError(error.description)
                throw AuthCommand.exit(for: error).code
            } catch {
                printError("\(error)")
                throw JewzExit.network.code
            }
        case (nil, let token?):
            return OAuth2Endpoints(token: token)
        default:
            throw ValidationError("OAuth needs the server: its issuer URL (its metadata is read) or --token-url URL, one of them.")
        }
    }

    /// An authorization server's URL as written on the command line: without a scheme it is
    /// `https` (its requests carry secrets), but for the `:PORT` shorthand of localhost.
    static func endpointURL(_ word: String) -> URL? {
        URL(string: RequestCommand.normalizedURL(word, defaultScheme: "https"))
    }

    /// The store of `client`'s tokens, bound to its server and client ID: the file of
    /// `--token-store`, else one named after the server and the client in jewz's configuration
    /// directory (`XDG_CONFIG_HOME`, else `~/.config`).
    ///
    /// - Throws: `ValidationError` when neither `HOME` nor `XDG_CONFIG_HOME` is set and no
    ///   `--token-store` is given: a guessed place (a shared `/tmp`) could be another user's.
    func fileStore(for client: OAuth2Client) throws -> OAuth2FileTokenStore {
        let server = client.endpoints.issuer ?? client.endpoints.token
        if let tokenStore { return OAuth2FileTokenStore(url: URL(fileURLWithPath: tokenStore), server: server, clientID: client.clientID) }
        let environment = ProcessInfo.processInfo.environment.filter { !$0.value.isEmpty }
        guard let configuration = environment["XDG_CONFIG_HOME"].map({ URL(fileURLWithPath: $0) })
            ?? environment["HOME"].map({ URL(fileURLWithPath: $0).appendingPathComponent(".config") })
        else {
            throw ValidationError("Neither HOME nor XDG_CONFIG_HOME is set: give --token-store FILE, in a directory of your own.")
        }
        let name = SHA256.hash(data: Data("\(server.absoluteString) \(client.clientID)".utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
        return OAuth2FileTokenStore(url: configuration.appendingPathComponent("jewz/oauth/\(name).json"), server: server, clientID: client.clientID)
    }

    /// Shows the device grant's code on standard error, where a script's output stays clean.
    /// What the server sent is shown with its control characters escaped, so that it cannot
    /// rewrite the lines the user reads.
    @Sendable static func present(_ authorization: OAuth2DeviceAuthorization) async throws {
        let link = authorization.verificationURIComplete.map { "\n  or open \($0.absoluteString.escapingControlCharacters)" } ?? ""
        StandardOutput.writeError(
            "jewz: To sign in, open \(authorization.verificationURI.absoluteString.escapingControlCharacters) and enter the code "
                + "\(authorization.userCode.escapingControlCharacters)\(link)\n")
    }

    /// Shows the sign-in URL of the browser grant on standard error.
    @Sendable static func open(_ url: URL) async throws {
        StandardOutput.writeError("jewz: To sign in, open this URL in a browser on this machine:\n  \(url.absoluteString.escapingControlCharacters)\n")
    }
}
