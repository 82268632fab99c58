#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import JewzHTTPCore
import JewzLocking

/// One task's events, from the delegate queue to the sending task.
///
/// There is no flow control: suspending and resuming a task in FoundationNetworking on Linux
/// delivered body bytes twice in our tests, so a slow reader lets the body pile up here. The
/// pile is bounded: past `maximumBacklog` bytes not yet taken, the exchange fails rather than
/// let a fast server grow the process without limit.
final class URLSessionExchange: HTTPExchangeCancelling {
    enum Event: Sendable {
        case head(status: Int, headers: HTTPHeaderFields, url: URL?)
        case body(Data)
    }

    let task: URLSessionTask
    let events: AsyncThrowingStream<Event, any Error>
    private let continuation: AsyncThrowingStream<Event, any Error>.Continuation
    private let onBodySent: (@Sendable (Int) -> Void)?
    private struct Flow {
        var expired = false
        var receivedHead = false
        var challenged = false
        var backlog = 0
        var overflowed = false
    }
    /// Bytes received but not yet taken by the reader, past which the exchange fails.
    static let maximumBacklog = 64 << 20
    private let flow = Mutex(Flow())

    init(task: URLSessionTask, onBodySent: (@Sendable (Int) -> Void)?) {
        self.task = task
        self.onBodySent = onBodySent
        (events, continuation) = AsyncThrowingStream.makeStream()
    }

    func head(_ response: HTTPURLResponse) {
        var headers = HTTPHeaderFields()
        for case let (name as String, value as String) in response.allHeaderFields {
            // FoundationNetworking joins repeated fields with commas; `Set-Cookie` must be
            // split back, where a comma starts a new `name=` (an Expires date keeps its own).
            let values = name.equalsCaseInsensitively("Set-Cookie") ? Self.setCookieFields(in: [value]) : [value]
            for value in values { headers.add(value, for: name) }
        }
        // libcurl has undone these codings already; the length no longer describes the body.
        let codings = headers.tokens(for: "Content-Encoding")
        if !codings.isEmpty, codings.allSatisfy({ ["gzip", "x-gzip", "deflate", "identity"].contains($0) }) {
            headers["Content-Encoding"] = nil
            headers["Content-Length"] = nil
        }
        flow.withLock { $0.receivedHead = true }
        continuation.yield(.head(status: response.statusCode, headers: headers, url: response.url))
    }

    func body(_ data: Data) {
        let overflowed = flow.withLock { flow in
            guard !flow.overflowed else { return false }
            flow.backlog += data.count
            flow.overflowed = flow.backlog > Self.maximumBacklog
            return flow.overflowed
        }
        if overflowed {
            continuation.finish(throwing: HTTPError.transport(reason: """
                the reader fell \(Self.maximumBacklog >> 20) MiB behind the server; the URLSession transport \
                has no flow control on Linux, so read the body faster or use the AsyncHTTPClient transport
                """))
            task.cancel()
        } else {
            continuation.yield(.body(data))
        }
    }

    /// The reader took `count` bytes of the body.
    func took(_ count: Int) {
        flow.withLock { $0.backlog -= count }
    }

    func sent(_ count: Int) {
        if count > 0 { onBodySent?(count) }
    }

    /// Ends the exchange from the sending side: the task stops, and what still arrives is dropped.
    func close() {
        continuation.finish()
        task.cancel()
    }

    /// Stops the task from elsewhere (a cancelled cycle); the stream then ends cancelled.
    func cancel() {
        task.cancel()
    }

    /// The response was an authentication challenge, already delivered.
    func challenged() {
        flow.withLock { $0.challenged = true }
    }

    /// The whole-exchange deadline passed.
    func expire() {
        flow.withLock { $0.expired = true }
        task.cancel()
    }

    func complete(_ error: (any Error)?) {
        guard let error else {
            continuation.finish()
            return
        }
        let (expired, receivedHead, challenged) = flow.withLock { ($0.expired, $0.receivedHead, $0.challenged) }
        if challenged, receivedHead {
            continuation.finish()
        } else if expired {
            continuation.finish(throwing: HTTPError.timedOut)
        } else if receivedHead, let error = error as? URLError, error.code == .unknown {
            // libcurl's "transfer closed with n bytes remaining" arrives without a code.
            continuation.finish(throwing: HTTPError.connectionLost(reason: error.localizedDescription))
        } else {
            continuation.finish(throwing: HTTPError(urlError: error))
        }
    }
}
