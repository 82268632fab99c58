import Foundation
import JewzLocking

/// An OAuth 2.0 authorization server for tests and the tour (RFC 6749, 7636, 7009, 8414, 8628),
/// with the clients of ``SandboxOAuthClients``. Consent is given by whoever follows the
/// authorization URL (`consent=deny` in it refuses) or opens the device verification URL
/// (`/oauth/device/verify?user_code=…&consent=allow|deny`).
///
/// | path | answers |
/// | --- | --- |
/// | `/.well-known/oauth-authorization-server` | the metadata, issuer `http://HOST` |
/// | `POST /oauth/token?expires_in=N` | tokens for every grant; refresh tokens rotate, a spent one is `invalid_grant` |
/// | `GET /oauth/authorize` | a redirect to a loopback `redirect_uri` with a code (S256 PKCE required) |
/// | `POST /oauth/device?interval=N&expires_in=N&slow_down=1` | device and user codes; `slow_down=1` answers the first poll so |
/// | `POST /oauth/revoke` | forgets an access or refresh token (RFC 7009) |
/// | `GET /oauth/resource` | `200` with the token's client and scopes, or `401 Bearer error="invalid_token"` |
/// | `POST /oauth/expire` | makes every access token invalid |
final class SandboxOAuth: Sendable {
    private struct Grant {
        var client: String
        var scopes: String
    }

    private struct Device {
        enum Status { case pending, approved, denied, used }
        var grant: Grant
        var userCode: String
        var expiresAt: Date
        var status = Status.pending
        var slowDownFirst: Bool
        var polls = 0
    }

    private struct State {
        var accessTokens: [String: (grant: Grant, expiresAt: Date)] = [:]
        var refreshTokens: [String: Grant] = [:]
        var codes: [String: (grant: Grant, challenge: String, redirectURI: String)] = [:]
        var devices: [String: Device] = [:]
        var usedAssertions: Set<String> = []
        var tokensIssued: [String: Int] = [:]
    }

    private let state = Mutex(State())

    /// How many tokens each grant type has issued.
    var tokensIssued: [String: Int] { state.withLock { $0.tokensIssued } }

    func respond(to request: SandboxRequest, segments: [String], query: [URLQueryItem]) -> SandboxResponse {
        let parameter = { (name: String) in query.first { $0.name == name }?.value }
        let issuer = "http://" + (request.header("Host") ?? "127.0.0.1")
        switch (request.method, segments.dropFirst().joined(separator: "/")) {
        case ("GET", "oauth-authorization-server"):
            return json([
                "issuer": issuer, "token_endpoint": issuer + "/oauth/token", "authorization_endpoint": issuer + "/oauth/authorize",
                "device_authorization_endpoint": issuer + "/oauth/device", "revocation_endpoint": issuer + "/oauth/revoke",
                "grant_types_supported": ["client_credentials", "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"],
            ])
        case ("POST", "token"):
            let lifetime = parameter("expires_in").flatMap(Double.init) ?? 3600
            return answer { try token(request, audience: issuer + "/oauth/token", lifetime: lifetime) }
        case ("GET", "authorize"):
            return authorize(parameter)
        case ("POST", "device"):
            return answer { try deviceAuthorization(request, issuer: issuer, parameter: parameter) }
        case (_, "device/verify"):
            return verifyDevice(userCode: parameter("user_code") ?? "", allow: parameter("consent") != "deny")
        case ("POST", "revoke"):
            return answer {
                let form = Self.form(request.body)
                _ = try clientID(request, form: form, audience: issuer + "/oauth/revoke")
                let token = form["token"] ?? ""
                state.withLock {
                    $0.accessTokens[token] = nil
                    $0.refreshTokens[token] = nil
                }
                return .text("")
            }
        case ("GET", "resource"):
            let header = request.header("Authorization") ?? ""
            let token = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)) : ""
            guard let access = state.withLock({ $0.accessTokens[token] }), access.expiresAt > Date() else {
                return SandboxResponse(
                    status: 401,
                    headers: [("WWW-Authenticate", #"Bearer realm="sandbox", error="invalid_token", error_description="the access token is not valid""#)])
            }
            return json(["client_id": access.grant.client, "scope": access.grant.scopes])
        case ("POST", "expire"):
            state.withLock { $0.accessTokens.removeAll() }
            return .text("expired")
        default:
            return .text("no such OAuth endpoint: \(request.method) \(request.path)", status: 404)
        }
    }

    private func answer(_ body: () throws -> SandboxResponse) -> SandboxResponse {
        do { return try body() } catch let refusal as SandboxOAuthRefusal { return refusal.response } catch { return .text("\(error)", status: 500) }
    }

    private func clientID(_ request: SandboxRequest, form: [String: String], audience: String) throws -> String {
        let outcome = state.withLock { state in
            SandboxOAuthClients.authenticate(request, form: form, audience: audience, usedAssertions: &state.usedAssertions)
        }
        return try outcome.get()
    }

    private func token(_ request: SandboxRequest, audience: String, lifetime: Double) throws -> SandboxResponse {
        let form = Self.form(request.body)
        let client = try clientID(request, form: form, audience: audience)
        let invalidGrant = { (why: String) in SandboxOAuthRefusal(status: 400, error: "invalid_grant", description: why) }
        let grantType = form["grant_type"] ?? ""
        let grant: Grant
        var issuesRefreshToken = true
        switch grantType {
        case "client_credentials":
            guard client != SandboxOAuthClients.publicID else {
                throw SandboxOAuthRefusal(status: 400, error: "unauthorized_client", description: "a public client has no credentials")
            }
            grant = Grant(client: client, scopes: form["scope"] ?? "")
            issuesRefreshToken = false
        case "authorization_code":
            guard let code = form["code"], let issued = state.withLock({ $0.codes.removeValue(forKey: code) }) else {
                throw invalidGrant("the code is unknown or already used")
            }
            guard issued.grant.client == client, issued.redirectURI == form["redirect_uri"],
                let verifier = form["code_verifier"], SandboxOAuthClients.challenge(for: verifier) == issued.challenge
            else { throw invalidGrant("the client, redirect_uri or code_verifier does not match the code's") }
            grant = issued.grant
        case "refresh_token":
            // Rotation: the refresh token is spent; the answer carries its successor.
            guard let refresh = form["refresh_token"], let issued = state.withLock({ $0.refreshTokens.removeValue(forKey: refresh) }),
                issued.client == client
            else { throw invalidGrant("the refresh token is unknown, revoked or already used") }
            grant = issued
        case "urn:ietf:params:oauth:grant-type:device_code":
            grant = try pollDevice(form["device_code"] ?? "", client: client)
        default:
            throw SandboxOAuthRefusal(status: 400, error: "unsupported_grant_type", description: "grant_type \(grantType) is not offered")
        }
        let access = "at-" + Self.random()
        let refresh = issuesRefreshToken ? "rt-" + Self.random() : nil
        state.withLock { state in
            state.accessTokens[access] = (grant, Date().addingTimeInterval(lifetime))
            if let refresh { state.refreshTokens[refresh] = grant }
            state.tokensIssued[grantType, default: 0] += 1
        }
        var fields: [String: Any] = ["access_token": access, "token_type": "Bearer", "expires_in": lifetime]
        fields["refresh_token"] = refresh
        if !grant.scopes.isEmpty { fields["scope"] = grant.scopes }
        return json(fields)
    }

    private func authorize(_ parameter: (String) -> String?) -> SandboxResponse {
        guard let client = parameter("client_id"), [SandboxOAuthClients.publicID, SandboxOAuthClients.confidentialID].contains(client),
            let redirect = parameter("redirect_uri"), var target = URLComponents(string: redirect),
            target.scheme == "http", ["127.0.0.1", "[::1]", "::1"].contains(target.host ?? "")
        else { return .text("unknown client_id, or a redirect_uri that is not http://127.0.0.1", status: 400) }
        var items = target.queryItems ?? []
        items.append(URLQueryItem(name: "state", value: parameter("state")))
        if parameter("consent") == "deny" {
            items.append(URLQueryItem(name: "error", value: "access_denied"))
        } else if parameter("response_type") != "code" || parameter("code_challenge_method") != "S256" || parameter("code_challenge") == nil {
            items.append(URLQueryItem(name: "error", value: "invalid_request"))
            items.append(URLQueryItem(name: "error_description", value: "response_type=code and an S256 code_challenge are required"))
        } else {
            let code = "code-" + Self.random()
            state.withLock {
                $0.codes[code] = (Grant(client: client, scopes: parameter("scope") ?? ""), parameter("code_challenge") ?? "", redirect)
            }
            items.append(URLQueryItem(name: "code", value: code))
        }
        target.queryItems = items
        return SandboxResponse(status: 302, headers: [("Location", target.string ?? redirect)])
    }

    private func deviceAuthorization(_ request: SandboxRequest, issuer: String, parameter: (String) -> String?) throws -> SandboxResponse {
        let form = Self.form(request.body)
        let client = try clientID(request, form: form, audience: issuer + "/oauth/device")
        let deviceCode = "dc-" + Self.random()
        let userCode = String(Self.random().uppercased().filter(\.isLetter).prefix(8))
        let lifetime = parameter("expires_in").flatMap(Double.init) ?? 600
        state.withLock {
            $0.devices[deviceCode] = Device(
                grant: Grant(client: client, scopes: form["scope"] ?? ""), userCode: userCode,
                expiresAt: Date().addingTimeInterval(lifetime), slowDownFirst: parameter("slow_down") == "1")
        }
        return json([
            "device_code": deviceCode, "user_code": userCode, "verification_uri": issuer + "/oauth/device/verify",
            "verification_uri_complete": issuer + "/oauth/device/verify?user_code=" + userCode, "expires_in": lifetime,
            "interval": Int(parameter("interval") ?? "1") ?? 1,
        ])
    }

    private func pollDevice(_ deviceCode: String, client: String) throws -> Grant {
        let refusal = { (error: String) in SandboxOAuthRefusal(status: 400, error: error, description: error) }
        return try state.withLock { state throws -> Grant in
            guard var device = state.devices[deviceCode], device.grant.client == client, device.status != .used else {
                throw refusal("invalid_grant")
            }
            defer { state.devices[deviceCode] = device }
            device.polls += 1
            if device.expiresAt <= Date() { throw refusal("expired_token") }
            if device.slowDownFirst, device.polls == 1 { throw refusal("slow_down") }
            switch device.status {
            case .pending: throw refusal("authorization_pending")
            case .denied: throw refusal("access_denied")
            case .approved, .used:
                device.status = .used
                return device.grant
            }
        }
    }

    private func verifyDevice(userCode: String, allow: Bool) -> SandboxResponse {
        let found = state.withLock { state in
            guard let key = state.devices.first(where: { $0.value.userCode == userCode && $0.value.status == .pending })?.key else { return false }
            state.devices[key]?.status = allow ? .approved : .denied
            return true
        }
        return found ? .text(allow ? "device approved" : "device denied") : .text("no pending device has that user code", status: 404)
    }

    private func json(_ object: [String: Any]) -> SandboxResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return SandboxResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: body)
    }

    /// The fields of an `application/x-www-form-urlencoded` body.
    static func form(_ body: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "" }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }

    private static func random() -> String {
        (0..<4).map { _ in String(UInt64.random(in: 0...UInt64.max), radix: 36) }.joined()
    }
}
