import Foundation
import JewzAuth
import JewzHTTPCore
import JewzSandbox
import JewzTestSupport
import Testing

/// One rule for every credential, whatever adds it: a redirect to another origin than the one
/// the call started at goes without it, unless the session sends credentials across redirects.
@Suite struct CredentialRedirectTests {
    /// Every way the toolkit puts a credential on a request.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case basic, basicProcessor, bearerProcessor, headerProcessor, digest, ntlm, tokenAuthenticator, oauth, sigV4, sigV4a

        var testDescription: String { rawValue }

        /// The headers a request carries when it is credentialed this way.
        var fields: [String] {
            switch self {
            case .headerProcessor: ["X-Api-Key"]
            case .sigV4, .sigV4a: ["Authorization", "X-Amz-Security-Token", "X-Amz-Date", "X-Amz-Content-SHA256"]
            default: ["Authorization"]
            }
        }

        /// Whether the credential goes out before any challenge, so that it can be seen on a hop.
        var isPreemptive: Bool { ![.digest, .ntlm].contains(self) }

        /// Sets this kind of credential on `configuration`, for a server at `sandbox`.
        func install(on configuration: inout HTTPSession.Configuration, sandbox: Sandbox) {
            let key = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret", sessionToken: "t0ken")
            switch self {
            case .basic: configuration.authentications = [BasicAuthentication(username: "test", password: "12345")]
            case .basicProcessor: configuration.requestProcessors = [BasicAuthProcessor(username: "test", password: "12345")]
            case .bearerProcessor: configuration.requestProcessors = [BearerTokenProcessor(token: "t0k3n")]
            case .headerProcessor: configuration.requestProcessors = [AuthorizationHeaderProcessor(scheme: "", credentials: "k3y", field: "X-Api-Key")]
            case .digest: configuration.authentications = [DigestAuthentication(username: "Mufasa", password: "pw")]
            case .ntlm: configuration.authentications = [NTLMAuthentication(username: "user", password: "pw")]
            case .tokenAuthenticator: configuration.authentications = [TokenAuthenticator { .init(token: "t0k3n") }]
            case .oauth:
                let client = OAuth2Client(
                    endpoints: OAuth2Endpoints(token: URL(string: sandbox.url("/oauth/token"))!), clientID: SandboxOAuthClients.confidentialID,
                    authentication: .secretBasic(SandboxOAuthClients.confidentialSecret), session: HTTPSession(configuration: .init { $0.logger = quietLogger }))
                configuration.authentications = [OAuth2Authentication(client: client, grant: .clientCredentials())]
            case .sigV4: configuration.networkMiddleware = [AWSSignatureV4(credentials: key, region: "us-east-1", service: "s3")]
            case .sigV4a: configuration.networkMiddleware = [AWSSignatureV4(credentials: key, regionSet: ["*"], service: "s3")]
            }
        }
    }

    /// What `/inspect` on `target` saw of `kind`'s fields after a 307 from `sandbox`.
    private func fieldsAfterRedirect(
        _ kind: Kind, from sandbox: Sandbox, to target: Sandbox, session: HTTPSession, method: HTTPMethod = .get
    ) async throws -> [String] {
        let response = try await HTTPCycle.get(
            sandbox.url("/redirect-to"), parameters: ["url": .init(target.url("/inspect/hop")), "status": "307"], session: session)
        let inspection = try Inspection(response)
        #expect(inspection.uri == "/inspect/hop")
        return kind.fields.flatMap { inspection.values($0) }
    }

    @Test(arguments: Kind.allCases)
    func aRedirectToAnotherOriginCarriesNoCredential(_ kind: Kind) async throws {
        let other = try await Sandbox.start()
        defer { Task { try? await other.shutdown() } }
        var configuration = HTTPSession.Configuration()
        try await withSandbox { sandbox, session in
            kind.install(on: &configuration, sandbox: sandbox)
            try session.update { [configuration] in
                $0.authentications = configuration.authentications
                $0.requestProcessors = configuration.requestProcessors
                $0.networkMiddleware = configuration.networkMiddleware
            }
            if kind == .basic {
                // Basic answers a challenge first, then goes out with every request to its space.
                _ = try await HTTPCycle.get(sandbox.url("/hello_with_basic_auth"), session: session)
            }
            if kind.isPreemptive {
                // The same origin is credentialed, so that what the hop lacks is the rule's doing.
                let here = try Inspection(try await HTTPCycle.get(sandbox.url("/inspect"), session: session))
                #expect(!kind.fields.flatMap { here.values($0) }.isEmpty, "\(kind) sends nothing at all")
                let sameOrigin = try await fieldsAfterRedirect(kind, from: sandbox, to: sandbox, session: session)
                #expect(!sameOrigin.isEmpty, "a hop on the same origin is credentialed")
            }
            #expect(try await fieldsAfterRedirect(kind, from: sandbox, to: other, session: session).isEmpty)

            // Basic goes ahead of a challenge only within the space that challenged it: trust
            // in redirects does not widen that.
            guard kind.isPreemptive, kind != .basic else { return }
            try session.update { $0.sendsCredentialsAcrossRedirects = true }
            #expect(!(try await fieldsAfterRedirect(kind, from: sandbox, to: other, session: session)).isEmpty, "trusted, the hop is credentialed")
        }
    }

    @Test func aPresignedURLRedirectedElsewhereKeepsNothingOfItsSignature() async throws {
        let other = try await Sandbox.start()
        defer { Task { try? await other.shutdown() } }
        try await withSandbox { sandbox, session in
            let signer = AWSSignatureV4(credentials: .init(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret"), region: "us-east-1", service: "s3")
            var redirect = URLComponents(string: sandbox.url("/redirect-to"))!
            redirect.queryItems = [.init(name: "url", value: other.url("/inspect/away")), .init(name: "status", value: "307")]
            let link = signer.presignedURL(for: HTTPRequest(url: redirect.url!))
            let inspection = try Inspection(try await HTTPCycle.get(link.absoluteString, session: session))
            #expect(inspection.uri == "/inspect/away")
            #expect(!inspection.uri.contains("X-Amz"))
        }
    }
}
