import Foundation
import Jewzruxin
import JewzSandbox

/// The tour's steps about a session as an API client: base URL, cookies, redirects.
extension TourStep {
    static func sessionSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "A session with a base URL is an API client: cycles take paths",
                code: """
                    var configuration = HTTPSession.Configuration()
                    configuration.baseURL = URL(string: url(""))
                    let api = HTTPSession(configuration: configuration)
                    let response = try await HTTPCycle.get("/hello/", session: api)
                    """
            ) {
                var configuration = HTTPSession.Configuration()
                configuration.baseURL = URL(string: url(""))
                let api = HTTPSession(configuration: configuration)
                let response = try await HTTPCycle.get("/hello/", session: api)
                try await api.shutdown()
                return Outcome("\"\(response.text ?? "")\"", expected: "\"Hello World\"")
            },
            TourStep(
                title: "A cookie jar keeps what servers set (RFC 6265) and sends it back where it belongs",
                code: """
                    var configuration = HTTPSession.Configuration()
                    configuration.cookieJar = try HTTPCookieJar()          // or HTTPCookieJar(persistingTo: file)
                    let session = HTTPSession(configuration: configuration)
                    try await HTTPCycle.get(url("/echo"), parameters: ["header": "Set-Cookie:flavour=oat"], session: session)
                    let response = try await HTTPCycle.get(url("/inspect"), session: session)   // sends Cookie: flavour=oat
                    """
            ) {
                var configuration = HTTPSession.Configuration()
                configuration.cookieJar = try HTTPCookieJar()
                let session = HTTPSession(configuration: configuration)
                try await HTTPCycle.get(url("/echo"), parameters: ["header": "Set-Cookie:flavour=oat"], session: session)
                let response = try await HTTPCycle.get(url("/inspect"), session: session)
                try await session.shutdown()
                let sent = response.text?.contains(#"["Cookie","flavour=oat"]"#) == true
                return Outcome(sent ? "Cookie: flavour=oat" : "no cookie sent", expected: "Cookie: flavour=oat")
            },
            TourStep(
                title: "Redirects follow one policy on every transport: a limit, loops, credentials kept to their origin",
                code: """
                    var configuration = HTTPSession.Configuration()
                    configuration.maximumRedirects = 2
                    let session = HTTPSession(configuration: configuration)
                    try await HTTPCycle.get(url("/redirect/3"), session: session)   // throws .tooManyRedirects
                    """
            ) {
                var configuration = HTTPSession.Configuration()
                configuration.maximumRedirects = 2
                let session = HTTPSession(configuration: configuration)
                let expected = "HTTPError.tooManyRedirects after 2 hops"
                do {
                    _ = try await HTTPCycle.get(url("/redirect/3"), session: session)
                    try await session.shutdown()
                    return Outcome("no error", expected: expected)
                } catch HTTPError.Code.tooManyRedirects {
                    try await session.shutdown()
                    return Outcome(expected, expected: expected)
                }
            },
        ]
    }
}
