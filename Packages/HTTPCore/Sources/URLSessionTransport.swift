#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Synchronization

/// The alternative transport: Foundation's `URLSession` (FoundationNetworking, libcurl, on
/// Linux), for apps that already configure one or need its proxy and cookie handling.
///
/// It passes the same behavioural tests as ``AsyncHTTPClientTransport`` except where the
/// platform does not allow it (see ARCHITECTURE.md): on Linux, libcurl undoes gzip and
/// deflate itself (so those codings are removed from the headers handed on), header order and
/// repeated fields are merged by `HTTPURLResponse` and `URLRequest`, a one-shot stream body is
/// spooled to a temporary file first because streamed request bodies do not work there, and a
/// body read slower than it arrives is buffered (there is no working flow control).
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let router: TaskRouter
    private let isShutDown = Mutex(false)

    /// Creates a transport with its own `URLSession`, configured from a session configuration.
    public init(configuration: HTTPSession.Configuration = .init()) {
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeoutForRequest.inSeconds
        sessionConfiguration.timeoutIntervalForResource = configuration.timeoutForResource?.inSeconds ?? 7 * 86_400
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maximumConnectionsPerHost
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        router = TaskRouter(
            followsRedirects: configuration.followsRedirects, maximumRedirects: configuration.maximumRedirects)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: sessionConfiguration, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?,
        to receiver: inout some HTTPResponseReceiver
    ) async throws {
        if isShutDown.withLock({ $0 }) { throw HTTPError.sessionShutDown }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        for field in request.headers {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        var spooled: URL?
        defer { if let spooled { try? FileManager.default.removeItem(at: spooled) } }
        let task: URLSessionTask
        switch request.body {
        case nil:
            task = session.dataTask(with: urlRequest)
        case .data(let data)?:
            task = session.uploadTask(with: urlRequest, from: data)
        case .file(let url)?:
            _ = try FileChunks(url: url).size()
            task = session.uploadTask(with: urlRequest, fromFile: url)
        case let body?:
            // A stream or segments: streamed request bodies do not work in FoundationNetworking
            // on Linux, so the body goes through a temporary file.
            let file = try await Self.spool(try body.chunks())
            spooled = file
            task = session.uploadTask(with: urlRequest, fromFile: file)
        }
        let exchange = Exchange(task: task, onBodySent: onBodySent)
        router.register(exchange)
        defer {
            // However the exchange ended, nothing more is buffered for it.
            exchange.close()
            router.unregister(task)
        }

        let deadline = timeout.map { ContinuousClock.now + $0 }
        let watchdog = deadline.map { deadline in
            Task {
                try await Task.sleep(until: deadline)
                exchange.expire()
            }
        }
        defer { watchdog?.cancel() }

        try await withTaskCancellationHandler {
            task.resume()
            for try await event in exchange.events {
                // A cancelled stream still drains what it buffered; stop at once instead.
                try Task.checkCancellation()
                switch event {
                case .head(let status, let headers, let url):
                    try receiver.receiveHead(statusCode: status, headers: headers, url: url)
                case .body(let data):
                    try data.withUnsafeBytes { try receiver.receiveBody($0) }
                    try await receiver.waitForDemand()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    public func shutdown() async throws {
        let wasShutDown = isShutDown.withLock { state in
            defer { state = true }
            return state
        }
        if !wasShutDown { session.invalidateAndCancel() }
    }

    /// Writes a body to a temporary file, chunk by chunk.
    private static func spool(_ chunks: HTTPBodyChunks) async throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("jewz-upload-\(UUID().uuidString)")
        let writer = try DownloadFile(url: file, keepingFirst: 0)
        do {
            for try await chunk in chunks {
                try chunk.withUnsafeBytes { try writer.write($0) }
            }
            try writer.close()
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
        return file
    }
}

/// One task's events, from the delegate queue to the sending task.
///
/// There is no flow control: suspending and resuming a task in FoundationNetworking on Linux
/// delivered body bytes twice in our tests, so a slow reader lets the body pile up here.
private final class Exchange: Sendable {
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
        var redirects = 0
        var receivedHead = false
        var challenged = false
    }
    private let flow = Mutex(Flow())

    init(task: URLSessionTask, onBodySent: (@Sendable (Int) -> Void)?) {
        self.task = task
        self.onBodySent = onBodySent
        (events, continuation) = AsyncThrowingStream.makeStream()
    }

    func head(_ response: HTTPURLResponse) {
        var headers = HTTPHeaderFields()
        for case let (name as String, value as String) in response.allHeaderFields {
            headers.add(value, for: name)
        }
        // libcurl has undone these codings already; the length no longer describes the body.
        let codings = headers.values(for: "Content-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingHTTPWhitespace().lowercased() }
        if !codings.isEmpty, codings.allSatisfy({ ["gzip", "x-gzip", "deflate", "identity"].contains($0) }) {
            headers["Content-Encoding"] = nil
            headers["Content-Length"] = nil
        }
        flow.withLock { $0.receivedHead = true }
        continuation.yield(.head(status: response.statusCode, headers: headers, url: response.url))
    }

    func body(_ data: Data) {
        continuation.yield(.body(data))
    }

    func sent(_ count: Int) {
        if count > 0 { onBodySent?(count) }
    }

    /// Counts a redirect; whether another one is allowed.
    func redirect(maximum: Int) -> Bool {
        flow.withLock { flow in
            flow.redirects += 1
            return flow.redirects <= maximum
        }
    }

    /// Ends the exchange from the sending side: the task stops, and what still arrives is dropped.
    func close() {
        continuation.finish()
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

/// The session's delegate: hands each task's callbacks to its exchange.
private final class TaskRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: Exchange]>([:])
    private let followsRedirects: Bool
    private let maximumRedirects: Int

    init(followsRedirects: Bool, maximumRedirects: Int) {
        self.followsRedirects = followsRedirects
        self.maximumRedirects = maximumRedirects
    }

    func register(_ exchange: Exchange) {
        exchanges.withLock { $0[exchange.task.taskIdentifier] = exchange }
    }

    func unregister(_ task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = nil }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let response = response as? HTTPURLResponse {
            exchange(for: dataTask)?.head(response)
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.body(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        exchange(for: task)?.sent(Int(bytesSent))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let allowed = followsRedirects && (exchange(for: task)?.redirect(maximum: maximumRedirects) ?? false)
        completionHandler(allowed ? request : nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // Challenges are the cycle's authentications' business. FoundationNetworking has
        // delivered the 401/407 and its body by now, but would wait forever with default
        // handling: stop the task and let the exchange end with what it has.
        exchange(for: task)?.challenged()
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        exchange(for: task)?.complete(error)
    }
}

extension HTTPError {
    /// Classifies a URLSession error like the default transport's errors.
    init(urlError error: any Error) {
        guard let error = error as? URLError else {
            self = .transport(reason: String(describing: error))
            return
        }
        switch error.code {
        case .timedOut:
            self = .timedOut
        case .cancelled:
            self = .cancelled(explicitly: false)
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            self = .connectionFailed(reason: error.localizedDescription)
        case .networkConnectionLost, .badServerResponse:
            self = .connectionLost(reason: error.localizedDescription)
        case .badURL, .unsupportedURL:
            self = .invalidURL(error.failingURL?.absoluteString ?? "")
        default:
            self = .transport(reason: error.localizedDescription)
        }
    }
}
