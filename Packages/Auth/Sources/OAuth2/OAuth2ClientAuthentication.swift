import Crypto
import Foundation
import JewzHTTPCore
import _CryptoExtras

/// How a client proves who it is to the token endpoint (RFC 6749 §2.3, RFC 7523 §2.2).
///
/// A public client (a CLI, a desktop program) has no secret: ``none``, with PKCE for the
/// authorization code. A confidential one sends its secret in a Basic header
/// (``secretBasic(_:)``, what RFC 6749 asks servers to support) or in the form
/// (``secretPost(_:)``), or signs a short-lived JWT with its private key
/// (``privateKeyJWT(pemRepresentation:keyID:)``), so that no secret crosses the wire.
public struct OAuth2ClientAuthentication: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case none
        case secretBasic(String)
        case secretPost(String)
        case privateKeyJWT(JWTSigner)
    }

    let kind: Kind

    /// A public client: its `client_id` in the form, nothing else.
    public static let none = OAuth2ClientAuthentication(kind: .none)

    /// `client_secret_basic`: the ID and secret, form-encoded, in an `Authorization: Basic` header.
    public static func secretBasic(_ secret: String) -> OAuth2ClientAuthentication { .init(kind: .secretBasic(secret)) }

    /// `client_secret_post`: the ID and secret as form fields of the token request.
    public static func secretPost(_ secret: String) -> OAuth2ClientAuthentication { .init(kind: .secretPost(secret)) }

    /// `private_key_jwt` (RFC 7523): each token request carries a JWT the client signs, valid
    /// for five minutes, for the token endpoint alone. The key is a PEM: an EC P-256 key signs
    /// with ES256, an RSA key of 2,048 bits or more with RS256.
    ///
    /// - Parameters:
    ///   - pemRepresentation: the private key, PEM-encoded (PKCS #8 or the key type's own form).
    ///   - keyID: the `kid` the server knows the public key by, when it holds several.
    /// - Throws: ``AuthError/Code/invalidKey`` when the PEM is neither kind of key.
    public static func privateKeyJWT(pemRepresentation: String, keyID: String? = nil) throws -> OAuth2ClientAuthentication {
        .init(kind: .privateKeyJWT(try JWTSigner(pemRepresentation: pemRepresentation, keyID: keyID)))
    }

    /// The method's name, secrets left out.
    public var description: String {
        switch kind {
        case .none: "none"
        case .secretBasic: "client_secret_basic (secret redacted)"
        case .secretPost: "client_secret_post (secret redacted)"
        case .privateKeyJWT(let signer): "private_key_jwt (\(signer.algorithm))"
        }
    }

    /// Adds the client's proof to a token endpoint request of `form` fields.
    func apply(clientID: String, audience: URL, to request: inout HTTPRequest, form: inout [(String, String)]) throws {
        switch kind {
        case .none:
            form.append(("client_id", clientID))
        case .secretBasic(let secret):
            // RFC 6749 §2.3.1: both are form-encoded before they are joined.
            let encode = { (value: String) in PercentEncoding.encode(value, allowing: .formURLEncoded, spaceAsPlus: true) }
            request.headers["Authorization"] = "Basic " + Data("\(encode(clientID)):\(encode(secret))".utf8).base64EncodedString()
        case .secretPost(let secret):
            form.append(("client_id", clientID))
            form.append(("client_secret", secret))
        case .privateKeyJWT(let signer):
            form.append(("client_id", clientID))
            form.append(("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"))
            form.append(("client_assertion", try signer.assertion(clientID: clientID, audience: audience, at: Date())))
        }
    }
}

/// Signs the client assertions of `private_key_jwt`.
struct JWTSigner: Sendable {
    enum Key: Sendable {
        case p256(P256.Signing.PrivateKey)
        case rsa(_RSA.Signing.PrivateKey)
    }

    let key: Key
    let keyID: String?

    init(pemRepresentation pem: String, keyID: String?) throws {
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
            self.key = .p256(key)
        } else if let key = try? _RSA.Signing.PrivateKey(pemRepresentation: pem) {
            self.key = .rsa(key)
        } else {
            throw AuthError.invalidKey("the PEM is neither an EC P-256 key nor an RSA key of 2,048 bits or more")
        }
        self.keyID = keyID
    }

    var algorithm: String {
        switch key {
        case .p256: "ES256"
        case .rsa: "RS256"
        }
    }

    /// A JWT naming the client as issuer and subject and the token endpoint as audience (RFC 7523 §3).
    func assertion(clientID: String, audience: URL, at now: Date) throws -> String {
        var header: [String: String] = ["alg": algorithm, "typ": "JWT"]
        header["kid"] = keyID
        let issuedAt = Int(now.timeIntervalSince1970)
        let claims: [String: any Sendable] = [
            "iss": clientID, "sub": clientID, "aud": audience.absoluteString, "jti": UUID().uuidString,
            "iat": issuedAt, "exp": issuedAt + 300,
        ]
        let encode = { (object: Any) throws -> String in
            Self.base64URL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        }
        let signingInput = try encode(header) + "." + encode(claims)
        let signature: Data
        switch key {
        case .p256(let key):
            signature = try key.signature(for: Data(signingInput.utf8)).rawRepresentation
        case .rsa(let key):
            signature = try key.signature(for: Data(signingInput.utf8), padding: .insecurePKCS1v1_5).rawRepresentation
        }
        return signingInput + "." + Self.base64URL(signature)
    }

    /// Base64url without padding (RFC 7515 §2).
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
