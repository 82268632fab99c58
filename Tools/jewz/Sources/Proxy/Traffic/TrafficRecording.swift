import Foundation
import JewzHTTPCore
import Synchronization

/// What the proxy tells the traffic view of one exchange as it goes: started, sent on, its
/// answer's head, each body chunk, its end.
struct TrafficRecording: Sendable {
    let log: TrafficLog
    let id: Int
    private let start = ContinuousClock.now
    /// The bodies as they pass, kept here rather than in the log until the exchange ends, so
    /// that a chunk costs a lock of its own exchange, not the lock every exchange shares.
    private let bodies = Bodies()

    private final class Bodies: Sendable {
        let kept = Mutex<(request: TrafficExchange.Body, response: TrafficExchange.Body)>((TrafficExchange.Body(), TrafficExchange.Body()))
    }

    /// Starts an exchange in `log`. `body` is the request's whole body when it was read before
    /// being sent on; a streamed one is kept with ``requestChunk(_:)`` as it goes.
    init(log: TrafficLog, method: String, url: URL, headers: HTTPHeaderFields, body: Data?, streamsBody: Bool) {
        self.log = log
        let limit = log.bodyLimit
        id = log.begin { id in
            var exchange = TrafficExchange(id: id, started: Date(), method: method, url: url, requestHeaders: headers)
            if let body {
                exchange.requestBody = TrafficExchange.Body(kept: body.count <= limit ? body : body.prefix(limit), size: body.count)
            } else if streamsBody {
                exchange.requestBody = TrafficExchange.Body()
            }
            return exchange
        }
    }

    /// The request went to the network (or the cache answered first: then this never comes).
    /// Not pushed to the pages: the row does not change.
    func sent() {
        let at = elapsed
        log.update(id, notifying: false) { $0.sentAt = $0.sentAt ?? at }
    }

    /// The answer's head is back.
    func head(_ head: HTTPResponse.Head, source: String) {
        let at = elapsed
        log.update(id) { exchange in
            exchange.state = .receiving
            exchange.status = head.statusCode
            exchange.version = head.version?.description
            exchange.responseHeaders = head.headers
            exchange.source = source
            exchange.sentAt = exchange.sentAt ?? at
            exchange.headAt = at
        }
    }

    /// A chunk of a streamed request body, as it is sent on.
    func requestChunk(_ chunk: Data) {
        let limit = log.bodyLimit
        bodies.kept.withLock { $0.request.keep(chunk, limit: limit) }
    }

    /// A chunk of the answer's body, as it is passed on.
    func responseChunk(_ chunk: Data) {
        let limit = log.bodyLimit
        bodies.kept.withLock { $0.response.keep(chunk, limit: limit) }
    }

    /// The exchange is over: complete, or failed saying why. `status` is the proxy's own
    /// answer when the upstream gave none.
    func end(failure: String? = nil, status: Int? = nil) {
        let at = elapsed
        let (request, response) = bodies.kept.withLock { $0 }
        log.update(id) { exchange in
            if exchange.requestBody?.size == 0, request.size > 0 { exchange.requestBody = request }
            exchange.responseBody = response
            exchange.endedAt = at
            exchange.failure = failure
            exchange.state = failure == nil ? .complete : .failed
            if exchange.status == nil, let status {
                exchange.status = status
                exchange.source = "proxy"
            }
        }
    }

    private var elapsed: Double {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

extension TrafficRecording {
    /// The exchange the current task forwards, for ``TrafficMonitor``.
    @TaskLocal static var current: TrafficRecording?
}

/// Tells the traffic view when a request went to the network: the session's events arrive on
/// the task that forwards it, where ``TrafficRecording/current`` names the exchange.
struct TrafficMonitor: HTTPEventMonitor {
    func call(_ call: HTTPCall, didEmit event: HTTPEvent) {
        if case .requestSent(_, attempt: 1, _) = event { TrafficRecording.current?.sent() }
    }
}

extension TrafficExchange.Body {
    /// Counts `chunk`, keeping its bytes while fewer than `limit` are kept.
    mutating func keep(_ chunk: Data, limit: Int) {
        size += chunk.count
        if kept.count < limit { kept.append(chunk.prefix(limit - kept.count)) }
    }
}
