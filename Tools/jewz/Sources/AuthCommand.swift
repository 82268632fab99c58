import ArgumentParser
import Foundation
import Jewzruxin

/// `jewz auth login|status|logout ISSUER`: an OAuth 2.0 sign-in kept between runs, for
/// `jewz --oauth2 stored` (or `device`, `browser`) to use and refresh.
struct AuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Sign in to an OAuth 2.0 server and keep the token for later requests.",
        discussion: """
            jewz auth login https://auth.example.com --client cli              device grant: a code to enter elsewhere
            jewz auth login https://auth.example.com --client cli --browser    authorization code + PKCE, loopback redirect
            jewz --oauth2 stored --issuer https://auth.example.com --client cli https://api.example.com/me
            jewz auth status https://auth.example.com --client cli
            jewz auth logout https://auth.example.com --client cli             revoked at the server, forgotten here
            """,
        subcommands: [Login.self, Status.self, Logout.self])

    /// What each subcommand needs: the server, the client, and a session to reach them.
    struct Server: ParsableArguments {
        @Argument(help: "The authorization server (its issuer URL); its endpoints are read from its metadata (RFC 8414), unless --token-url is given.")
        var issuer: String?

        @OptionGroup var client: OAuthClientOptions

        @OptionGroup var connection: ConnectionOptions

        /// Runs `body` with the client and its store, then shuts the session down.
        func withClient<T>(_ body: (OAuth2Client, OAuth2FileTokenStore) async throws -> T) async throws -> T {
            let session = try connection.makeSession()
            do {
                let oauth = try await client.makeClient(issuer: issuer, using: session)
                let result = try await body(oauth, try client.fileStore(for: oauth))
                try? await session.shutdown()
                return result
            } catch {
                try? await session.shutdown()
                throw error
            }
        }
    }

    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in with the device grant (or --browser) and keep the token.")

        @OptionGroup var server: Server

        @Flag(help: "Sign in in a browser on this machine (authorization code with PKCE, redirected to a listener on 127.0.0.1) instead of entering a code.")
        var browser = false

        func run() async throws {
            let scopes = server.client.scopes
            try await server.withClient { client, store in
                let grant: OAuth2Grant = browser
                    ? .authorizationCode(scopes: scopes, open: OAuthClientOptions.open)
                    : .deviceAuthorization(scopes: scopes, present: OAuthClientOptions.present)
                let token = try await AuthCommand.reporting {
                    try await OAuth2Authentication(client: client, grant: grant, store: store).signIn()
                }
                printLine("Signed in as \(client.clientID); \(AuthCommand.summary(token)). Kept in \(store.url.path).")
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Say whether a token is kept, and until when (never the token itself).")

        @OptionGroup var server: Server

        func run() async throws {
            try await server.withClient { client, store in
                guard let token = try await store.token() else {
                    printLine("Not signed in as \(client.clientID): jewz auth login.")
                    throw JewzExit.clientError.code
                }
                printLine("Signed in as \(client.clientID); \(AuthCommand.summary(token)).")
            }
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "logout", abstract: "Revoke the kept token at the server and forget it.")

        @OptionGroup var server: Server

        func run() async throws {
            try await server.withClient { client, store in
                try await AuthCommand.reporting {
                    try await OAuth2Authentication(client: client, grant: .storedOnly, store: store).signOut()
                }
                printLine("Signed out: the token is revoked\(client.endpoints.revocation == nil ? " (the server has no revocation endpoint: it only expires)" : "") and forgotten.")
            }
        }
    }

    /// The token's state in words, without a credential.
    static func summary(_ token: OAuth2Token) -> String {
        var parts = [token.expiresAt.map { "the access token expires \($0.formatted(.iso8601))" } ?? "the access token has no stated expiry"]
        parts.append(token.refreshToken == nil ? "no refresh token" : "refreshed without you while the server allows")
        if !token.scopes.isEmpty { parts.append("scopes: \(token.scopes.joined(separator: " "))") }
        // The scopes are the server's words: escaped, they cannot rewrite the terminal.
        return parts.joined(separator: ", ").escapingControlCharacters
    }

    /// A refusal (of the client, the user or the token) is the client's to mend, as a 4xx is;
    /// a URL or a file the user gave that cannot be trusted is a usage error; anything else is
    /// the network's or the server's.
    static func exit(for error: AuthError) -> JewzExit {
        // What the user gave (an http endpoint, a store that is not theirs) is theirs to mend.
        if [.insecureEndpoint, .untrustedTokenStore].contains(error.code) { return .usage }
        return [.authorizationServer, .accessDenied, .loginRequired, .tokenRejected, .expiredToken, .invalidKey].contains(error.code)
            ? .clientError : .network
    }

    /// Runs `work`, saying an OAuth or network failure in one line and exiting as jewz does.
    static func reporting<T>(_ work: () async throws -> T) async throws -> T {
        do {
            return try await work()
        } catch let error as AuthError {
            printError(error.description)
            throw exit(for: error).code
        } catch let error as HTTPError {
            printError(error.description)
            throw JewzExit.network.code
        }
    }
}
