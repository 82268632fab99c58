import Crypto
import Foundation

/// The clients the Sandbox's authorization server knows, and how each proves who it is.
///
/// | client_id | authenticates with |
/// | --- | --- |
/// | `jewz-confidential` | secret `s3cret`, in a Basic header or the form |
/// | `jewz-public` | nothing (PKCE for the authorization code) |
/// | `jewz-jwt` | a JWT signed with ``SandboxOAuthClients/jwtClientKeyPEM`` (ES256) |
public enum SandboxOAuthClients {
    public static let confidentialID = "jewz-confidential"
    public static let confidentialSecret = "s3cret"
    public static let publicID = "jewz-public"
    public static let jwtID = "jewz-jwt"

    /// The private key of `jewz-jwt`: a test key, published here so tests and the tour can sign.
    public static let jwtClientKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgnILCyNkaTL14qGqW
        Tbq6kfACiUlyVX/4fgDzNRYPteKhRANCAARCm30e6h7yp3MEnFTKXNostMjA/+uK
        b3myph8TOOydO8EsdlWh4B35DLlK3XUt9FyLETbZIR/lSmaTNP3sZxNG
        -----END PRIVATE KEY-----
        """

    private static let jwtPublicKey = (try? P256.Signing.PrivateKey(pemRepresentation: jwtClientKeyPEM))?.publicKey

    /// Who sent a token endpoint request: the client's ID, or why it is refused (`invalid_client`).
    static func authenticate(_ request: SandboxRequest, form: [String: String], audience: String, usedAssertions: inout Set<String>) -> Result<String, SandboxOAuthRefusal> {
        let refused = SandboxOAuthRefusal(status: 401, error: "invalid_client", description: "client authentication failed")
        if let header = request.header("Authorization"), header.hasPrefix("Basic ") {
            guard let decoded = Data(base64Encoded: String(header.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) }),
                let colon = decoded.firstIndex(of: ":")
            else { return .failure(refused) }
            let id = decoded[..<colon].removingPercentEncoding ?? ""
            let secret = decoded[decoded.index(after: colon)...].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            return id == confidentialID && secret == confidentialSecret ? .success(id) : .failure(refused)
        }
        if let assertion = form["client_assertion"] {
            guard form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                verifyAssertion(assertion, audience: audience), !usedAssertions.contains(assertion)
            else { return .failure(refused) }
            usedAssertions.insert(assertion)
            return .success(jwtID)
        }
        switch (form["client_id"], form["client_secret"]) {
        case (confidentialID?, confidentialSecret?): return .success(confidentialID)
        case (publicID?, nil): return .success(publicID)
        default: return .failure(refused)
        }
    }

    /// Whether `assertion` is an ES256 JWT by `jewz-jwt` for `audience`, unexpired (RFC 7523 §3).
    private static func verifyAssertion(_ assertion: String, audience: String) -> Bool {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let header = json(parts[0]), let claims = json(parts[1]), let signatureBytes = base64URL(parts[2]),
            header["alg"] as? String == "ES256", let key = jwtPublicKey,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return false }
        let now = Date().timeIntervalSince1970
        return claims["iss"] as? String == jwtID && claims["sub"] as? String == jwtID && claims["aud"] as? String == audience
            && ((claims["exp"] as? NSNumber)?.doubleValue ?? 0) > now
    }

    private static func json(_ part: String) -> [String: Any]? {
        base64URL(part).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    private static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// An OAuth error answer (RFC 6749 §5.2).
struct SandboxOAuthRefusal: Error {
    var status: Int
    var error: String
    var description: String

    var response: SandboxResponse {
        let body = (try? JSONSerialization.data(withJSONObject: ["error": error, "error_description": description])) ?? Data()
        var headers = [("Content-Type", "application/json"), ("Cache-Control", "no-store")]
        if status == 401 { headers.append(("WWW-Authenticate", #"Basic realm="sandbox-oauth""#)) }
        return SandboxResponse(status: status, headers: headers, body: body)
    }
}

extension SandboxOAuthClients {
    /// The S256 challenge of a PKCE verifier.
    static func challenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
