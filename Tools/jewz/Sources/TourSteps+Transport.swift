import Foundation
import Jewzruxin
import JewzSandbox

/// The tour's steps about reaching servers: TLS, pinning, HTTP/2, proxies, per-request idle timeouts
/// and cancelling a session's cycles. The TLS steps start a second Sandbox with a certificate
/// authority made for the run.
extension TourStep {
    static func transportSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "TLS is verified by default: a server whose authority is not trusted is refused",
                code: """
                    let secure = try await Sandbox.start(tls: SandboxTLS(certificates: try SandboxCertificates.generate()))
                    try await HTTPCycle.get(secure.url("/hello/"))   // throws .certificateRejected, saying how to trust it
                    """
            ) {
                let secure = try await Sandbox.start(tls: SandboxTLS(certificates: try SandboxCertificates.generate()))
                defer { Task { try? await secure.shutdown() } }
                return try await failing(with: .certificateRejected) { _ = try await HTTPCycle.get(secure.url("/hello/")) }
            },
            TourStep(
                title: "Trust its authority and the request goes over HTTP/2, negotiated by ALPN",
                code: """
                    let certificates = try SandboxCertificates.generate()
                    let secure = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
                    var configuration = HTTPSession.Configuration()
                    configuration.transport.tls.additionalTrustRoots = [try .init(pem: certificates.authorityPEM)]
                    let session = HTTPSession(configuration: configuration)   // .http1Only would keep to HTTP/1.1
                    let response = try await HTTPCycle.get(secure.url("/inspect"), session: session)
                    response.json?["version"].string   // the protocol the server saw
                    """
            ) {
                let certificates = try SandboxCertificates.generate()
                let secure = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
                var configuration = HTTPSession.Configuration()
                configuration.transport.tls.additionalTrustRoots = [try .init(pem: certificates.authorityPEM)]
                let session = HTTPSession(configuration: configuration)
                let response = try await HTTPCycle.get(secure.url("/inspect"), session: session)
                try await session.shutdown()
                try await secure.shutdown()
                let version = response.json?["version"].string ?? "nothing"
                return Outcome(version, expected: "HTTP/2.0")
            },
            TourStep(
                title: "An HTTP/2 stream the server refuses unprocessed goes again on its own, a POST too: processed once",
                code: """
                    // orderURL: https://127.0.0.1:PORT/counter?key=order&fail=0&refuse=1 (the first stream refused)
                    let request = HTTPRequest(url: orderURL, method: .post, data: Data("order".utf8))
                    let response = try await session.send(request)   // refused (REFUSED_STREAM), sent again: 200
                    secure.router.requestCount(forKey: "order")       // the server processed it once
                    """
            ) {
                let certificates = try SandboxCertificates.generate()
                let secure = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
                var configuration = HTTPSession.Configuration()
                configuration.transport.tls.additionalTrustRoots = [try .init(pem: certificates.authorityPEM)]
                let session = HTTPSession(configuration: configuration)
                let path = "/counter?key=order&fail=0&refuse=1"
                guard let url = URL(string: secure.url(path)) else { throw HTTPError.invalidURL(path) }
                let request = HTTPRequest(url: url, method: .post, data: Data("order".utf8))
                let response = try await session.send(request)
                try await session.shutdown()
                try await secure.shutdown()
                return Outcome(
                    "\(response.statusCode), refused \(secure.router.streamsRefused), processed \(secure.router.requestCount(forKey: "order"))",
                    expected: "200, refused 1, processed 1")
            },
            TourStep(
                title: "Pin a host to its root's key: a chain ending at another root, even a trusted one, is refused",
                code: """
                    let root = try AsyncHTTPClientTransport.Configuration.PEMCertificates(pem: other.authorityPEM)
                    configuration.transport.tls.additionalTrustRoots = [trusted, root]
                    configuration.transport.tls.pinning = try .init(["127.0.0.1": [try root.pins()[0].pin]], anchors: [root])
                    try await HTTPCycle.get(secure.url("/hello/"), session: session)
                    // throws .pinMismatch, listing the pins the server presented (jewz pins URL prints them too)
                    """
            ) {
                let certificates = try SandboxCertificates.generate()
                let secure = try await Sandbox.start(tls: SandboxTLS(certificates: certificates))
                defer { Task { try? await secure.shutdown() } }
                let trusted = try AsyncHTTPClientTransport.Configuration.PEMCertificates(pem: certificates.authorityPEM)
                let root = try AsyncHTTPClientTransport.Configuration.PEMCertificates(pem: try SandboxCertificates.generate().authorityPEM)
                var configuration = HTTPSession.Configuration()
                configuration.transport.tls.additionalTrustRoots = [trusted, root]
                configuration.transport.tls.pinning = try .init(["127.0.0.1": [try root.pins()[0].pin]], anchors: [root])
                let session = HTTPSession(configuration: configuration)
                defer { Task { try? await session.shutdown() } }
                return try await failing(with: .pinMismatch) { _ = try await HTTPCycle.get(secure.url("/hello/"), session: session) }
            },
            TourStep(
                title: "A proxy carries requests through CONNECT tunnels (SOCKS5 too; HTTP_PROXY only when asked)",
                code: """
                    let proxy = try await SandboxProxy.start(.http, credentials: ("ada", "secret"))
                    configuration.transport.proxies = .all(try .init(url: "http://ada:secret@127.0.0.1:\\(proxy.port)"))
                    // or: configuration.transport.proxies = try .environment()
                    try await HTTPCycle.get(url("/hello/"), session: HTTPSession(configuration: configuration))
                    proxy.tunnels
                    """
            ) {
                let proxy = try await SandboxProxy.start(.http, credentials: ("ada", "secret"))
                var configuration = HTTPSession.Configuration()
                configuration.transport.proxies = .all(try .init(url: "http://ada:secret@127.0.0.1:\(proxy.port)"))
                let session = HTTPSession(configuration: configuration)
                try await HTTPCycle.get(url("/hello/"), session: session)
                try await session.shutdown()
                try await proxy.shutdown()
                return Outcome("\(proxy.tunnels)", expected: "[\"127.0.0.1:\(sandbox.port)\"]")
            },
            TourStep(
                title: "A call may set its own idle timeout, shorter or longer than the transport's",
                code: """
                    let cycle = try HTTPCycle(url("/echo/?delay=3"), method: .get, options: .init(idleTimeout: .milliseconds(300), retryPolicy: .never))
                    try await cycle.start()   // throws .timedOut after 0.3 s of silence
                    """
            ) {
                let cycle = try HTTPCycle(url("/echo/?delay=3"), method: .get, options: .init(idleTimeout: .milliseconds(300), retryPolicy: .never))
                return try await failing(with: .timedOut) { try await cycle.start() }
            },
            TourStep(
                title: "A session cancels its calls by method and path, or all of them (a sign-out)",
                code: """
                    async let held = HTTPCycle.get(url("/counter"), parameters: ["key": "tour-cancel", "hold": 30])
                    // once the server holds it:
                    HTTPSession.default.cancelCalls(method: .get, path: url("/counter"))   // or cancelAllCalls()
                    try await held   // throws .cancelled, at once
                    """
            ) {
                let held = Task { try await HTTPCycle.get(url("/counter"), parameters: ["key": "tour-cancel", "hold": 30]) }
                while sandbox.router.requestCount(forKey: "tour-cancel") == 0 { await Task.yield() }
                let cancelled = HTTPSession.default.cancelCalls(method: .get, path: url("/counter"))
                let outcome = try await failing(with: .cancelled) { _ = try await held.value }
                return Outcome("\(cancelled) cancelled: \(outcome.shown)", expected: "1 cancelled: \(outcome.expected)")
            },
        ]
    }
}
