import Foundation
import Jewzruxin
import JewzSandbox

/// The tour's step about `jewz proxy --web`: the page's own API, read as the page reads it.
extension TourStep {
    static func proxySteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "jewz proxy --web: every exchange through the proxy, live in a browser page, credentials redacted",
                code: """
                    // jewz proxy --port 8080 --upstream \(url("")) --web      then open http://127.0.0.1:8081/
                    // curl -H 'Authorization: Bearer tour-token' http://127.0.0.1:8080/json
                    let rows = try await session.send(HTTPRequest(url: page.appending(path: "api/exchanges"))).json
                    let opened = try await session.send(HTTPRequest(url: page.appending(path: "api/exchanges/1"))).json
                    """
            ) {
                guard let origin = URL(string: url("")) else { throw HTTPError.invalidURL(url("")) }
                let log = TrafficLog(capacity: 10, bodyLimit: 1 << 20)
                let upstream = HTTPSession(configuration: .init {
                    $0.followsRedirects = false
                    $0.shouldTreatStatusCodeAsFailure = { _ in false }
                    $0.eventMonitors = [TrafficMonitor()]
                })
                var forwarder = ProxyForwarder(session: upstream, mode: .reverse(origin), replaying: false)
                forwarder.traffic = log
                forwarder.logsExchanges = false
                let proxy = try await ProxyServer.start(host: "127.0.0.1", port: 0, forwarder: forwarder)
                let server = try await TrafficServer.start(host: "127.0.0.1", port: 0)
                let replay = TrafficReplay(host: "127.0.0.1", port: proxy.port, upstream: origin)
                let serving = Task { await server.run(TrafficRoutes(log: log, replay: replay, bind: "127.0.0.1", port: server.port)) }
                let session = HTTPSession()
                defer { serving.cancel() }
                guard let client = URL(string: "http://127.0.0.1:\(proxy.port)/json"), let page = URL(string: "http://127.0.0.1:\(server.port)/") else {
                    throw HTTPError.invalidURL("127.0.0.1")
                }
                var request = HTTPRequest(url: client)
                request.headers["Authorization"] = "Bearer tour-token"
                _ = try await session.send(request)
                let rows = try await session.send(HTTPRequest(url: page.appending(path: "api/exchanges"))).json
                let opened = try await session.send(HTTPRequest(url: page.appending(path: "api/exchanges/1"))).json
                let authorization = opened?["entry"]["request"]["headers"].array?.first { $0["name"].string == "Authorization" }?["value"].string
                log.close()
                await server.close()
                await proxy.close()
                try await session.shutdown()
                try await upstream.shutdown()
                let row = rows?[0]
                return Outcome(
                    "\(row?["method"].string ?? "?") \(row?["url"].string.map { URL(string: $0)?.path ?? $0 } ?? "?") → \(row?["status"].int ?? 0) "
                        + "from \(row?["source"].string ?? "?"), Authorization \(authorization ?? "?")",
                    expected: "GET /json → 200 from origin, Authorization [redacted]")
            }
        ]
    }
}
