import Foundation
import Jewzruxin
import JewzSandbox
import Synchronization

/// The tour's steps about the request path: the stages in order, and a step of your own.
extension TourStep {
    static func middlewareSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "The request path is one list of stages; a network middleware of yours runs on every redirect hop",
                code: """
                    let hops = HTTPClosureMiddleware("hops") { request, next in
                        print("→", request.url.path)                 // each hop, as it goes on the wire
                        return try await next(request)
                    }
                    let session = HTTPSession(configuration: .init { $0.networkMiddleware = [hops] })
                    session.stageNames                                  // retry, redirects, hops, transport
                    try await HTTPCycle.get(url("/redirect/2"), session: session)
                    """
            ) {
                let paths = Mutex<[String]>([])
                let hops = HTTPClosureMiddleware("hops") { request, next in
                    paths.withLock { $0.append(request.url.path) }
                    return try await next(request)
                }
                let session = HTTPSession(configuration: .init { $0.networkMiddleware = [hops] })
                try await HTTPCycle.get(url("/redirect/2"), session: session)
                try await session.shutdown()
                return Outcome(
                    "\(session.stageNames.joined(separator: " → ")): \(paths.withLock { $0 }.joined(separator: ", "))",
                    expected: "retry → redirects → hops → transport: /redirect/2, /redirect/1, /redirect/0, /hello")
            },
            TourStep(
                title: "An application middleware sees each call once: headers, logs, or an answer of its own",
                code: """
                    var configuration = HTTPSession.Configuration()
                    configuration.middleware = [
                        HTTPHeaderMiddleware(["X-Client": "tour"]),
                        HTTPClosureMiddleware("offline") { request, next in
                            guard request.url.path == "/canned" else { return try await next(request) }
                            return HTTPResponse(statusCode: 200, body: HTTPResponseBody(Data("from the middleware".utf8)))   // no network
                        },
                    ]
                    let response = try await HTTPCycle.get(url("/canned"), session: HTTPSession(configuration: configuration))
                    """
            ) {
                var configuration = HTTPSession.Configuration()
                configuration.middleware = [
                    HTTPHeaderMiddleware(["X-Client": "tour"]),
                    HTTPClosureMiddleware("offline") { request, next in
                        guard request.url.path == "/canned" else { return try await next(request) }
                        return HTTPResponse(statusCode: 200, body: HTTPResponseBody(Data("from the middleware".utf8)))
                    },
                ]
                let session = HTTPSession(configuration: configuration)
                let canned = try await HTTPCycle.get(url("/canned"), session: session)
                let inspected = try await HTTPCycle.get(url("/inspect"), session: session)
                try await session.shutdown()
                let sent = inspected.text?.contains(#"["X-Client","tour"]"#) == true
                return Outcome(
                    "\"\(canned.text ?? "")\", X-Client \(sent ? "sent" : "missing")",
                    expected: "\"from the middleware\", X-Client sent")
            },
            TourStep(
                title: "A body on its way to a file passes a network middleware as a stream: it can look, rewrite, or add fields at the end",
                code: """
                    let counting = HTTPClosureMiddleware("count") { request, next in
                        var response = try await next(request)
                        let seen = Atomic(0)
                        response.body = response.body
                            .map { chunk in seen.add(chunk.count, ordering: .relaxed); return chunk }   // as it passes
                            .withTrailers { ["X-Bytes-Seen": String(seen.load(ordering: .relaxed))] }  // at its end
                        return response
                    }
                    let saved = try await session.download(HTTPRequest(url: URL(string: url("/download/1000000"))!), to: file)
                    saved.headers["X-Bytes-Seen"]
                    """
            ) {
                let counting = HTTPClosureMiddleware("count") { request, next in
                    var response = try await next(request)
                    let seen = Atomic(0)
                    response.body = response.body
                        .map { chunk in
                            seen.add(chunk.count, ordering: .relaxed)
                            return chunk
                        }
                        .withTrailers { ["X-Bytes-Seen": String(seen.load(ordering: .relaxed))] }
                    return response
                }
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-tour-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: file) }
                let session = HTTPSession(configuration: .init { $0.networkMiddleware = [counting] })
                guard let big = URL(string: url("/download/1000000")) else { return Outcome("no URL", expected: "") }
                let response = try await session.download(HTTPRequest(url: big), to: file)
                try await session.shutdown()
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                return Outcome(
                    "file \(size) bytes, X-Bytes-Seen: \(response.headers["X-Bytes-Seen"] ?? "none")",
                    expected: "file 1000000 bytes, X-Bytes-Seen: 1000000")
            },
        ]
    }
}
