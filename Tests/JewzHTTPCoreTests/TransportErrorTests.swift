import AsyncHTTPClient
@testable import JewzHTTPCore
import Testing

/// AsyncHTTPClient's errors as the toolkit reports them. Its names overlap HTTPError.Code's
/// (`cancelled`, `invalidURL`, `proxyAuthenticationRequired`), whose `~=` once claimed them
/// unqualified and let these fall through to `transport`.
@Suite struct TransportErrorTests {
    @Test(arguments: [
        (HTTPClientError.proxyAuthenticationRequired, HTTPError.Code.proxyAuthenticationRequired),
        (.cancelled, .cancelled), (.invalidURL, .invalidURL), (.readTimeout, .timedOut),
        (.httpProxyHandshakeTimeout, .timedOut), (.remoteConnectionClosed, .connectionLost),
        (.alreadyShutdown, .sessionShutDown), (.invalidProxyResponse, .invalidResponse),
    ])
    func asyncHTTPClientErrorsKeepTheirMeaning(error: HTTPClientError, code: HTTPError.Code) {
        #expect(HTTPError(transportError: error).code == code)
    }
}
