import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Synchronization
import Testing

/// No secret shown by `description` or `dump`, credentials limited to no origin sent nowhere,
/// a server's `interval` of 0 not obeyed, a refresh spent only on a refused token, presigned
/// URLs as AWS signs them.
@Suite struct CredentialDisclosureTests {
    /// What `dump` prints of `value`.
    private func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    @Test func headerFieldsShowNoCredentialWhenPrintedOrDumped() {
        let headers: HTTPHeaderFields = [
            "Authorization": "Bearer at-secret", "proxy-authorization": "Basic pa-secret", "Cookie": "id=c-secret",
            "Set-Cookie": "id=sc-secret", "X-Amz-Security-Token": "st-secret", "Accept": "application/json",
        ]
        for shown in [headers.description, String(describing: headers), dumped(headers)] {
            #expect(!shown.contains("secret"), "\(shown)")
            #expect(shown.contains("Accept: application/json"))
            #expect(shown.contains("Authorization: <redacted>"))
        }
        #expect(headers["Authorization"] == "Bearer at-secret", "the values themselves are kept")
    }

    @Test func tokensKeysAndCredentialsDumpNoSecret() {
        let token = OAuth2Token(accessToken: "at-hidden", refreshToken: "rt-hidden", idToken: "id-hidden")
        let key = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "sk-hidden", sessionToken: "st-hidden")
        let credential = TokenAuthenticator.Credential(token: "bt-hidden", expiresAt: Date())
        let holders: [Any] = [
            BasicAuthentication(username: "ada", password: "pw-hidden"), DigestAuthentication(username: "ada", password: "pw-hidden"),
            NTLMAuthentication(username: "ada", password: "pw-hidden"), AuthorizationHeaderProcessor(scheme: "Token", credentials: "tk-hidden"),
            BasicAuthProcessor(username: "ada", password: "pw-hidden"), BearerTokenProcessor(token: "bt-hidden"),
            OAuth2ClientAuthentication.secretPost("cs-hidden"), TokenAuthenticator(credential: credential) { credential },
        ]
        for value in [token, key, credential] + holders {
            for shown in [dumped(value), String(describing: value), String(reflecting: value)] {
                #expect(!shown.contains("hidden"), "\(shown)")
            }
        }
        #expect(dumped(key).contains("AKIDEXAMPLE"))
    }

    @Test func aDeviceAuthorizationShowsNoDeviceCode() async throws {
        try await withSandbox { sandbox, session in
            var client = OAuth2Client(
                endpoints: OAuth2GrantTests.endpoints(sandbox, device: "/oauth/device?interval=0"), clientID: SandboxOAuthClients.publicID,
                session: session)
            let waits = Mutex<[Duration]>([])
            client.sleep = { duration in waits.withLock { $0.append(duration) } }
            let shown = Mutex<[String]>([])
            _ = try await client.deviceAuthorizationToken { authorization in
                shown.withLock { $0 = [authorization.description, String(describing: authorization), self.dumped(authorization)] }
                _ = try await session.answer(HTTPRequest(url: try #require(authorization.verificationURIComplete)))
            }
            for text in shown.withLock({ $0 }) {
                #expect(text.contains("userCode"))
                #expect(!text.contains("dc-"), "\(text)")
            }
            // A server's interval of 0 would have the device poll without pause: RFC 8628's five seconds.
            #expect(waits.withLock { $0 } == [.seconds(5)])
        }
    }

    @Test func anAuthenticationLimitedToNoOriginIsSentNowhere() async throws {
        try await withSandbox { sandbox, session in
            try session.update {
                $0.authentications = [BasicAuthentication(username: "test", password: "12345").limited(to: [])]
            }
            let inspection = try Inspection(try await HTTPCycle.get(sandbox.url("/inspect"), session: session))
            #expect(inspection.values("Authorization").isEmpty)
            let refused = await httpError { try await HTTPCycle.get(sandbox.url("/hello_with_basic_auth"), session: session) }
            #expect(refused?.statusCode == 401)
        }
    }

    @Test func a401SpendsARefreshOnlyWhenTheTokenWasRefused() async throws {
        try await withSandbox { sandbox, session in
            let oauth = OAuth2Authentication(
                client: OAuth2AuthenticationTests.client(sandbox, session), grant: OAuth2AuthenticationTests.approvingDeviceGrant(session))
            try session.update { $0.authentications = [oauth] }
            #expect(try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/resource"))).statusCode == 200)
            // A challenge of another scheme, and a Bearer error a new token does not mend.
            let basic = await httpError { _ = try await session.send(HTTPRequest(url: sandbox.endpoint("/hello_with_basic_auth"))) }
            #expect(basic?.statusCode == 401)
            var request = HTTPRequest(url: sandbox.endpoint("/echo/"))
            request.url.append(queryItems: [.init(name: "code", value: "401"), .init(name: "header", value: #"WWW-Authenticate:Bearer error="invalid_request""#)])
            let invalidRequest = await httpError { _ = try await session.send(request) }
            #expect(invalidRequest?.statusCode == 401)
            #expect(sandbox.router.oauthTokensIssued["refresh_token"] == nil)
            // A token the server refuses is refreshed.
            _ = try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/expire"), method: .post))
            #expect(try await session.send(HTTPRequest(url: sandbox.endpoint("/oauth/resource"))).statusCode == 200)
            #expect(sandbox.router.oauthTokensIssued["refresh_token"] == 1)
        }
    }

    /// botocore's presigner, `SigV4QueryAuth(Credentials("AKIDEXAMPLE", secret), "sts",
    /// "us-east-1", expires=60)` at 2026-11-29T12:00:00Z, gave this signature.
    @Test func aPresignedURLForAServiceOtherThanS3SignsThePayloadsHash() throws {
        let signer = AWSSignatureV4(
            credentials: .init(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), region: "us-east-1",
            service: "sts")
        let request = HTTPRequest(url: try #require(URL(string: "https://sts.us-east-1.amazonaws.com/?Action=GetCallerIdentity&Version=2011-06-15")))
        let link = signer.presignedURL(for: request, lifetime: .seconds(60), at: Date(timeIntervalSince1970: 1_795_953_600))
        let items = try #require(URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(items.first { $0.name == "X-Amz-Date" }?.value == "20261129T120000Z")
        #expect(items.first { $0.name == "X-Amz-Signature" }?.value == "cfd98300491729278f603bb1aa40414cc75812f7a53bc79980011b855c9827ef")
    }
}
