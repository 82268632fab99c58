import Foundation
import JewzHTTPCore

/// What a device shows its user during the device grant (RFC 8628 §3.2): a code to type at
/// a URL on another device.
public struct OAuth2DeviceAuthorization: Sendable, Hashable {
    /// The code the user types.
    public var userCode: String
    /// Where the user types it.
    public var verificationURI: URL
    /// The URL with the code already in it, when the server gives one (for a QR code).
    public var verificationURIComplete: URL?
    /// When the codes stop being valid.
    public var expiresAt: Date
    /// The least time between two polls of the token endpoint.
    public var interval: Duration
    /// The code the device polls with; secret to the device.
    var deviceCode: String
}

extension OAuth2DeviceAuthorization: CustomStringConvertible, CustomReflectable {
    /// What the user is shown, the device code left out: it is the device's secret.
    public var description: String {
        "OAuth2DeviceAuthorization(userCode: \(userCode), verificationURI: \(verificationURI.absoluteString), expiresAt: \(expiresAt), interval: \(interval))"
    }

    /// The fields `dump` and the debugger show, the device code left out.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "userCode": userCode, "verificationURI": verificationURI, "verificationURIComplete": verificationURIComplete as Any,
                "expiresAt": expiresAt, "interval": interval, "deviceCode": "<redacted>",
            ], displayStyle: .struct)
    }
}

extension OAuth2Client {
    /// The device authorization grant (RFC 8628), for a program whose user signs in on
    /// another device: asks for a user code, hands it to `present` to show, then polls the
    /// token endpoint every `interval` (five seconds more after each `slow_down`) until the
    /// user approves.
    ///
    /// - Throws: ``AuthError/Code/accessDenied`` when the user refuses;
    ///   ``AuthError/Code/expiredToken`` when the codes expire first; as
    ///   ``clientCredentialsToken(scopes:)`` for any other refusal; `CancellationError` when
    ///   the task is cancelled while it waits.
    public func deviceAuthorizationToken(
        scopes: [String] = [], present: @Sendable (OAuth2DeviceAuthorization) async throws -> Void
    ) async throws -> OAuth2Token {
        let authorization = try await deviceAuthorization(scopes: scopes)
        try await present(authorization)
        var interval = authorization.interval
        while true {
            try await sleep(interval)
            guard Date() < authorization.expiresAt else {
                throw AuthError.expiredToken("the user code \(authorization.userCode) expired before the user approved it")
            }
            let response = try await post(
                [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", authorization.deviceCode)],
                to: endpoints.token)
            if response.statusCode == 200 { return try OAuth2Token.decode(response.data, receivedAt: Date()) }
            let error = Self.error(in: response, from: endpoints.token)
            switch error.oauthError {
            case "authorization_pending": continue
            case "slow_down": interval += .seconds(5)
            case "access_denied": throw AuthError.accessDenied("the user refused to let this device sign in")
            case "expired_token": throw AuthError.expiredToken("the user code \(authorization.userCode) expired before the user approved it")
            default: throw error
            }
        }
    }

    /// Asks the server for a device and a user code (RFC 8628 §3.1).
    func deviceAuthorization(scopes: [String]) async throws -> OAuth2DeviceAuthorization {
        guard let endpoint = endpoints.deviceAuthorization else {
            throw AuthError.invalidServerResponse("the server has no device authorization endpoint; give one, or discover the endpoints")
        }
        var form: [(String, String)] = []
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        let response = try await post(form, to: endpoint)
        guard response.statusCode == 200 else { throw Self.error(in: response, from: endpoint) }
        return try OAuth2DeviceAuthorization.decode(response.data, receivedAt: Date())
    }
}

extension OAuth2DeviceAuthorization {
    /// Reads a device authorization answer (RFC 8628 §3.2).
    ///
    /// - Throws: ``AuthError/Code/invalidServerResponse`` when a field it needs is missing.
    static func decode(_ data: Data, receivedAt now: Date) throws -> OAuth2DeviceAuthorization {
        let fields = try OAuth2Client.jsonObject(data, what: "device authorization")
        guard let deviceCode = fields["device_code"] as? String, let userCode = fields["user_code"] as? String,
            let verification = (fields["verification_uri"] ?? fields["verification_url"]) as? String,
            let verificationURI = URL(string: verification), let stated = OAuth2Client.number("expires_in", in: fields)
        else {
            throw AuthError.invalidServerResponse("the device authorization answer lacks device_code, user_code, verification_uri or expires_in")
        }
        let lifetime = min(max(stated, 0), 86_400)
        // RFC 8628 §3.2: five seconds when the server does not say, or says less than one (a
        // server's 0 would have the device poll without pause); a wild value is bounded.
        let seconds = OAuth2Client.number("interval", in: fields).map { $0 < 1 ? 5 : min($0, 600) } ?? 5
        return OAuth2DeviceAuthorization(
            userCode: userCode, verificationURI: verificationURI,
            verificationURIComplete: (fields["verification_uri_complete"] as? String).flatMap(URL.init(string:)),
            expiresAt: now.addingTimeInterval(lifetime), interval: .milliseconds(Int(seconds * 1000)), deviceCode: deviceCode)
    }
}
