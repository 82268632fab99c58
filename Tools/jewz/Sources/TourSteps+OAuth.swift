import Foundation
import Jewzruxin
import JewzSandbox

/// The tour's OAuth 2.0 steps, with the Sandbox as the authorization server and the tour as
/// the user who approves.
extension TourStep {
    static func oauthSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "OAuth 2.0 client credentials: the server's endpoints discovered, one token for many requests",
                code: """
                    let endpoints = try await OAuth2Endpoints.discover(issuer: URL(string: url(""))!, using: session)
                    let client = OAuth2Client(endpoints: endpoints, clientID: "jewz-confidential", authentication: .secretBasic("s3cret"), session: session)
                    try session.update { $0.authentications = [OAuth2Authentication(client: client, grant: .clientCredentials(scopes: ["read"]))] }
                    // 10 requests at once to url("/oauth/resource")
                    """
            ) {
                let session = HTTPSession()
                guard let issuer = URL(string: url("")) else { return Outcome("bad URL", expected: "") }
                let endpoints = try await OAuth2Endpoints.discover(issuer: issuer, using: session)
                let client = OAuth2Client(
                    endpoints: endpoints, clientID: SandboxOAuthClients.confidentialID,
                    authentication: .secretBasic(SandboxOAuthClients.confidentialSecret), session: session)
                try session.update { $0.authentications = [OAuth2Authentication(client: client, grant: .clientCredentials(scopes: ["read"]))] }
                let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<10 {
                        group.addTask { try await HTTPCycle.get(url("/oauth/resource"), session: session).statusCode == 200 }
                    }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                try await session.shutdown()
                return Outcome(
                    "\(answered) answered, \(sandbox.router.oauthTokensIssued["client_credentials"] ?? 0) token issued",
                    expected: "10 answered, 1 token issued")
            },
            TourStep(
                title: "The device grant: the user enters a code elsewhere; the token is kept in a 0600 file and the next run refreshes it",
                code: """
                    let store = OAuth2FileTokenStore(url: directory.appendingPathComponent("token.json"))
                    let device = OAuth2Authentication(client: client, grant: .deviceAuthorization { print($0.userCode, $0.verificationURI) }, store: store)
                    try await device.signIn()      // polls until the user approves
                    let later = OAuth2Authentication(client: client, grant: .storedOnly, store: store)   // another run: no user
                    // the server expires every access token; later's request refreshes, with a rotated refresh token
                    """
            ) {
                let session = HTTPSession()
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-tour-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: directory) }
                let store = OAuth2FileTokenStore(url: directory.appendingPathComponent("token.json"))
                guard let issuer = URL(string: url("")) else { return Outcome("bad URL", expected: "") }
                let client = OAuth2Client(
                    endpoints: try await OAuth2Endpoints.discover(issuer: issuer, using: session), clientID: SandboxOAuthClients.publicID,
                    session: session)
                let device = OAuth2Authentication(
                    client: client,
                    grant: .deviceAuthorization { authorization in
                        // The user, on their phone:
                        if let approve = authorization.verificationURIComplete { _ = try await session.send(HTTPRequest(url: approve)) }
                    }, store: store)
                let first = try await device.signIn()
                let mode = (try? FileManager.default.attributesOfItem(atPath: store.url.path)[.posixPermissions] as? Int) ?? 0
                _ = try await HTTPCycle.post(url("/oauth/expire"), requestObject: nil, session: session)
                let later = OAuth2Authentication(client: client, grant: .storedOnly, store: store)
                try session.update { $0.authentications = [later] }
                let status = try await HTTPCycle.get(url("/oauth/resource"), session: session).statusCode
                let rotated = later.token?.refreshToken != first.refreshToken
                try await session.shutdown()
                return Outcome(
                    "file mode \(String(mode, radix: 8)), later run: \(status), refresh token rotated: \(rotated)",
                    expected: "file mode 600, later run: 200, refresh token rotated: true")
            },
            TourStep(
                title: "Sign-in in a browser: the authorization code with PKCE comes back to a listener on 127.0.0.1",
                code: """
                    let token = try await client.authorizationCodeToken(scopes: ["profile"]) { signInURL in
                        // show signInURL to the user; their browser lands on http://127.0.0.1:PORT/callback
                    }
                    """
            ) {
                let session = HTTPSession()
                guard let issuer = URL(string: url("")) else { return Outcome("bad URL", expected: "") }
                let client = OAuth2Client(
                    endpoints: try await OAuth2Endpoints.discover(issuer: issuer, using: session), clientID: SandboxOAuthClients.publicID,
                    session: session)
                // The browser: the Sandbox consents at once and redirects to the listener.
                let token = try await client.authorizationCodeToken(scopes: ["profile"]) { _ = try await session.send(HTTPRequest(url: $0)) }
                try await session.shutdown()
                return Outcome("\(token)".replacingOccurrences(of: #"expires [^,]*, "#, with: "", options: .regularExpression),
                    expected: "OAuth2Token(Bearer token redacted, refresh token redacted, scopes profile)")
            },
        ]
    }
}
