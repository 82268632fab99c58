import Foundation
import Jewzruxin
import JewzSandbox

/// The tour's steps about bodies that stream, recordings and where servers listen: Server-Sent
/// Events that resume, a WebSocket, JSON lines, brotli and zstd, HAR, a Unix domain socket.
extension TourStep {
    static func streamingSteps(_ sandbox: Sandbox) -> [TourStep] {
        let url = sandbox.url
        return [
            TourStep(
                title: "Server-Sent Events resume after the last event ID when a stream ends, until a 204",
                code: """
                    let feed = HTTPEventSource(url: URL(string: url("/events/tour?count=5&per=2&retry=20"))!)
                    for try await event in feed { ids.append(event.id) }   // three streams, then the 204
                    // jewz -S URL prints them as they arrive; --no-reconnect stops at the first end
                    """
            ) {
                guard let feed = URL(string: url("/events/tour?count=5&per=2&retry=20")) else { return Outcome("no URL", expected: "") }
                var ids: [String] = []
                for try await event in HTTPEventSource(url: feed) { ids.append(event.id) }
                let resumed = sandbox.router.lastEventIDs(forKey: "tour").map { $0.isEmpty ? "none" : $0 }
                return Outcome(
                    "events \(ids.joined(separator: ",")); Last-Event-ID sent: \(resumed.joined(separator: ", "))",
                    expected: "events 1,2,3,4,5; Last-Event-ID sent: none, 2, 4, 5")
            },
            TourStep(
                title: "A WebSocket opens through the session's path (credentials, cookies, proxies) and echoes both ways",
                code: """
                    var options = WebSocketOptions(subprotocols: ["tour.v1"])
                    let echoed = try await session.withWebSocket(to: URL(string: url("/ws/echo"))!, options: options) { socket in
                        try await socket.send(text: "ping?")
                        try await socket.send(data: Data([1, 2, 3]))
                        var messages = socket.messages.makeAsyncIterator()
                        return [try await messages.next(), try await messages.next()]
                    }   // closed with 1000 on return; jewz ws URL pipes lines through one
                    """
            ) {
                guard let echo = URL(string: url("/ws/echo")) else { return Outcome("no URL", expected: "") }
                let (subprotocol, echoed) = try await HTTPSession.default.withWebSocket(to: echo, options: WebSocketOptions(subprotocols: ["tour.v1"])) { socket in
                    try await socket.send(text: "ping?")
                    try await socket.send(data: Data([1, 2, 3]))
                    var messages = socket.messages.makeAsyncIterator()
                    return (socket.subprotocol ?? "none", [try await messages.next(), try await messages.next()])
                }
                let shown = echoed.map { message -> String in
                    switch message {
                    case .text(let text)?: "text \(text)"
                    case .binary(let data)?: "binary \(Array(data))"
                    case nil: "nothing"
                    }
                }
                return Outcome("\(subprotocol): \(shown.joined(separator: ", "))", expected: "tour.v1: text ping?, binary [1, 2, 3]")
            },
            TourStep(
                title: "JSON lines are decoded one by one as they arrive",
                code: """
                    struct Line: Decodable { var index: Int; var text: String }
                    let feed = try await HTTPSession.default.stream(HTTPRequest(url: URL(string: url("/ndjson?count=3&interval=50"))!))
                    for try await line in feed.body.jsonLines(as: Line.self) { texts.append(line.text) }
                    """
            ) {
                struct Line: Decodable { var index: Int; var text: String }
                guard let lines = URL(string: url("/ndjson?count=3&interval=50")) else { return Outcome("no URL", expected: "") }
                let feed = try await HTTPSession.default.stream(HTTPRequest(url: lines))
                var texts: [String] = []
                for try await line in feed.body.jsonLines(as: Line.self) { texts.append(line.text) }
                return Outcome(texts.joined(separator: ", "), expected: "line 0, line 1, line 2")
            },
            TourStep(
                title: "brotli and zstd bodies are decoded as they arrive, beside gzip (Accept-Encoding names all)",
                code: """
                    let br = try await HTTPCycle.get(url("/encoded?coding=br&content=brotli%20"))
                    let zstd = try await HTTPCycle.get(url("/encoded?coding=zstd&content=zstd"))
                    """
            ) {
                let br = try await HTTPCycle.get(url("/encoded?coding=br&content=brotli%20"))
                let zstd = try await HTTPCycle.get(url("/encoded?coding=zstd&content=zstd"))
                return Outcome((br.text ?? "") + (zstd.text ?? ""), expected: "brotli zstd")
            },
            TourStep(
                title: "Record exchanges as HAR 1.2, then replay them with the server gone",
                code: """
                    let recorder = HARRecorder()            // or HARRecorder(writingTo: file)
                    try session.update { $0.networkMiddleware = [recorder] }
                    let live = try await HTTPCycle.get(url("/json"), session: session)
                    let archive = try recorder.archive()
                    let offline = HTTPSession(configuration: .init { $0.customTransport = HARReplayTransport(archive: archive) })
                    let again = try await HTTPCycle.get(url("/json"), session: offline)   // from the archive
                    """
            ) {
                let recorder = HARRecorder()
                let session = HTTPSession()
                try session.update { $0.networkMiddleware = [recorder] }
                let live = try await HTTPCycle.get(url("/json"), session: session)
                try await session.shutdown()
                let archive = try recorder.archive()
                let offline = HTTPSession(configuration: .init { $0.customTransport = HARReplayTransport(archive: archive) })
                let again = try await HTTPCycle.get(url("/json"), session: offline)
                try await offline.shutdown()
                let same = again.data == live.data && again.statusCode == 200
                return Outcome(
                    "\(try recorder.archive().log.entries.count) entry recorded, replayed \(same ? "the same" : "something else")",
                    expected: "1 entry recorded, replayed the same")
            },
            TourStep(
                title: "A server on a Unix domain socket, as curl --unix-socket (jewz --unix-socket PATH URL)",
                code: """
                    let local = try await Sandbox.start(unixSocketPath: socketPath)
                    configuration.transport.unixSocketPath = socketPath      // or a URL: http+unix://%2Ftmp%2F…/hello/
                    try await HTTPCycle.get("http://app.local/hello/", session: HTTPSession(configuration: configuration))
                    """
            ) {
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-tour-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                let socketPath = directory.appendingPathComponent("app.sock").path
                let local = try await Sandbox.start(unixSocketPath: socketPath)
                var configuration = HTTPSession.Configuration()
                configuration.transport.unixSocketPath = socketPath
                let session = HTTPSession(configuration: configuration)
                let response = try await HTTPCycle.get("http://app.local/hello/", session: session)
                try await session.shutdown()
                try await local.shutdown()
                return Outcome("\"\(response.text ?? "")\"", expected: "\"Hello World\"")
            },
        ]
    }
}
