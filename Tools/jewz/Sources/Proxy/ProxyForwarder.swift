import Foundation
import Jewzruxin
import NIOCore
import NIOHTTP1
import Synchronization

/// Sends one client request on through the proxy's session and streams the answer back: the
/// asynchronous half of ``ProxyHandler``, one task per request.
struct ProxyForwarder: Sendable {
    /// Where requests go.
    enum Mode: Sendable {
        /// A forward proxy: the client names absolute `http://` URLs (`curl -x`, `HTTP_PROXY`).
        case forward
        /// A reverse proxy in front of one origin: request targets are paths under it.
        case reverse(URL)
    }

    /// The largest request body read whole before it is sent on; larger ones (and those of
    /// unknown length) stream, sent once and not recorded.
    static let heldBodyLimit = 1 << 20

    let session: HTTPSession
    let mode: Mode
    /// Whether answers come from an archive (for the log line).
    let replaying: Bool
    /// What to add so that paths are answered, when a forward proxy replays an archive of
    /// several origins.
    var pathAdvice: String?
    /// Where the traffic view keeps exchanges (`--web`); `nil` costs nothing.
    var traffic: TrafficLog?
    /// Whether each exchange gets its line on standard error (not in the tour, which shows the page instead).
    var logsExchanges = true

    /// Forwards `head` (with `body`, if it has one) and writes the answer to `channel`: a 502
    /// saying why when the upstream fails before its head, a cut connection when it fails
    /// after. One line on standard error says what happened, written before the client can have
    /// the whole answer.
    ///
    /// - Returns: whether the connection may serve another request.
    func forward(_ head: HTTPRequestHead, body: BodyRelay?, to channel: any Channel, answered: Answered) async -> Bool {
        let started = ContinuousClock.now
        guard let url = target(of: head) else {
            let reason = (head.uri.hasPrefix("/") ? pathAdvice : nil)
                ?? "jewz proxy forwards absolute http:// URLs\(mode.isForward ? " (HTTPS goes through CONNECT)" : "") and paths under its upstream"
            log(head, url: head.uri, outcome: "400 (\(reason))", since: started)
            await Self.answer(400, reason, to: channel)
            return head.isKeepAlive
        }
        var request = HTTPRequest(url: url, method: HTTPMethod(rawValue: ProxyHeaders.methodName(head.method)), headers: ProxyHeaders.outgoing(head.headers))
        let length = head.headers["Content-Length"].first.flatMap(Int.init)
        var streamed: BodyRelay?
        if let body {
            if let length, length <= Self.heldBodyLimit {
                // A small body is read first: it can then be sent again (a retry, a challenge)
                // and recorded whole.
                var data = Data()
                do {
                    while let chunk = try await body.next() { data.append(chunk) }
                } catch {
                    log(head, url: url.absoluteString, outcome: "client gone", since: started)
                    return false
                }
                request.body = .data(data)
            } else {
                streamed = body
            }
        }
        let recording = traffic.map {
            TrafficRecording(log: $0, method: request.method.rawValue, url: url, headers: request.headers, body: request.data, streamsBody: streamed != nil)
        }
        if let streamed {
            request.body = .stream(HTTPBodyStream(length: length, AsyncThrowingStream {
                let chunk = try await streamed.next()
                if let chunk { recording?.requestChunk(chunk) }
                return chunk
            }))
        }
        let cycle = HTTPCycle(requestURL: url, session: session)
        cycle.request = request
        var wroteHead = false
        do {
            // The task-local binding only with a traffic view: without one, nothing on the way.
            let response: HTTPStreamedResponse
            if let recording {
                response = try await TrafficRecording.$current.withValue(recording) { try await cycle.startStreaming() }
                recording.head(response.head, source: source(of: response.head, forView: true))
            } else {
                response = try await cycle.startStreaming()
            }
            let stream = response.body
            var headers = ProxyHeaders.incoming(response.headers)
            let hasBody = head.method != .HEAD && ![204, 304].contains(response.statusCode) && response.statusCode >= 200
            if hasBody, !headers.contains(name: "Content-Length") { headers.add(name: "Transfer-Encoding", value: "chunked") }
            let status = HTTPResponseStatus(statusCode: response.statusCode)
            try await channel.writeAndFlush(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))).get()
            wroteHead = true
            let length = headers["Content-Length"].first.flatMap(Int.init)
            if !hasBody || length == 0 { answered.mark() }
            var written = 0
            var last: Data?
            for try await chunk in stream {
                recording?.responseChunk(chunk)
                written += chunk.count
                // The bytes that complete a known length wait for the upstream exchange to end:
                // a client that has them sends its next request at once, and that request must
                // find this exchange recorded and cached, or see the connection cut if it failed.
                if let length, written >= length {
                    last = (last ?? Data()) + chunk
                    continue
                }
                try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(data: chunk)))).get()
            }
            // Logged and marked before the last bytes go: the client may close, or stop this
            // proxy, as soon as it has them.
            log(head, url: url.absoluteString, outcome: "\(response.statusCode) \(source(of: response.head))", since: started)
            if let last {
                answered.mark()
                try await channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(data: last)))).get()
            }
            // The body is out: a client that closes at once (its last byte read) is no failure.
            let ended = (try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()) != nil
            recording?.end()
            return head.isKeepAlive && ended
        } catch {
            let reason = (error as? HTTPError)?.description ?? "\(error)"
            if wroteHead {
                // The head is gone: only a cut connection tells the client the body is not whole.
                log(head, url: url.absoluteString, outcome: "cut (\(reason))", since: started)
                recording?.end(failure: "cut: \(reason)")
                channel.close(promise: nil)
                return false
            }
            let cancelled = (error as? HTTPError)?.code == .cancelled || error is CancellationError
            log(head, url: url.absoluteString, outcome: cancelled ? "client gone" : "502 (\(reason))", since: started)
            recording?.end(failure: cancelled ? "client gone" : reason, status: cancelled ? nil : 502)
            if !cancelled { await Self.answer(502, "jewz proxy: the upstream failed: \(reason)", to: channel) }
            return head.isKeepAlive && !cancelled
        }
    }

    /// The URL a request target stands for; `nil` when this proxy does not take it.
    private func target(of head: HTTPRequestHead) -> URL? {
        switch mode {
        case .forward:
            guard head.uri.lowercased().hasPrefix("http://"), let url = URL(string: head.uri), url.host != nil else { return nil }
            return url
        case .reverse(let upstream):
            guard head.uri.hasPrefix("/") else { return nil }
            let base = upstream.absoluteString.hasSuffix("/") ? String(upstream.absoluteString.dropLast()) : upstream.absoluteString
            return URL(string: base + head.uri)
        }
    }

    /// Where the answer came from: `network` in the log line, `origin` in the traffic view.
    private func source(of response: HTTPResponse.Head, forView: Bool = false) -> String {
        switch response.source {
        case .network: replaying ? "replay" : forView ? "origin" : "network"
        case .cache: "cache"
        case .revalidated: "cache, revalidated"
        case .stale: "cache, stale"
        }
    }

    /// One line on standard error: the request, what came of it, how long it took.
    private func log(_ head: HTTPRequestHead, url: String, outcome: String, since started: ContinuousClock.Instant) {
        guard logsExchanges else { return }
        let milliseconds = Int((ContinuousClock.now - started) / .milliseconds(1))
        printError("proxy \(ProxyHeaders.methodName(head.method)) \(url) → \(outcome) \(milliseconds) ms")
    }

    /// A short plain-text answer of the proxy's own.
    static func answer(_ status: Int, _ text: String, to channel: any Channel) async {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: String(text.utf8.count + 1))
        headers.add(name: "Via", value: ProxyHeaders.via)
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: status), headers: headers)
        channel.write(HTTPServerResponsePart.head(head), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: text + "\n"))), promise: nil)
        try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
    }
}

/// Whether the client has every byte of its answer: once it has, a client that closes is done
/// rather than gone, and the upstream exchange is left to end on its own.
final class Answered: Sendable {
    private let flag = Atomic(false)

    func mark() {
        flag.store(true, ordering: .releasing)
    }

    var isMarked: Bool { flag.load(ordering: .acquiring) }
}

extension ProxyForwarder.Mode {
    var isForward: Bool {
        if case .forward = self { true } else { false }
    }
}
