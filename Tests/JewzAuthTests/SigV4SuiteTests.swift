import Foundation
import JewzAuth
import JewzHTTPCore
import Testing

/// AWS's Signature Version 4 signing suite (`Resources/aws-signing-test-suite/SOURCE.md`): for
/// each case, the canonical request, the string to sign and the signature, in the header form
/// and the query (presigned URL) form, as aws-c-auth computes them.
@Suite struct SigV4SuiteTests {
    static let suite = SigningSuite("v4")
    static let cases = suite.cases

    @Test func theSuiteIsPresentWhole() {
        #expect(Self.cases.count == 38)
    }

    @Test(arguments: cases) func headerForm(_ name: String) throws {
        let (context, signing, canonical, stringToSign) = try Self.suite.headerForm(name)
        #expect(canonical == (try Self.suite.read(name, "header-canonical-request.txt")))
        #expect(stringToSign == (try Self.suite.read(name, "header-string-to-sign.txt")))
        let signature = signing.signature(of: stringToSign, secret: context.credentials.secret_access_key, timestamp: Self.timestamp(context))
        #expect(signature == (try Self.suite.read(name, "header-signature.txt")))
    }

    @Test(arguments: cases) func queryForm(_ name: String) throws {
        let (context, signing, canonical, stringToSign) = try Self.suite.queryForm(name)
        #expect(canonical == (try Self.suite.read(name, "query-canonical-request.txt")))
        #expect(stringToSign == (try Self.suite.read(name, "query-string-to-sign.txt")))
        let signature = signing.signature(of: stringToSign, secret: context.credentials.secret_access_key, timestamp: Self.timestamp(context))
        #expect(signature == (try Self.suite.read(name, "query-signature.txt")))
    }

    /// A context's time as SigV4 writes it.
    static func timestamp(_ context: SigningSuite.Context) -> String {
        context.timestamp.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }
}
