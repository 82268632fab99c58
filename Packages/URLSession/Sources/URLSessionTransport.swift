#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import JewzHTTPCore
import JewzLocking

/// The alternative transport: Foundation's `URLSession` (FoundationNetworking, libcurl, on
/// Linux), for apps that already configure one or need its proxy and cookie handling.
///
/// It passes the same behavioural tests as `AsyncHTTPClientTransport` except where the
/// platform does not allow it (see ARCHITECTURE.md): on Linux, libcurl undoes gzip and
/// deflate itself (so those codings are removed from the headers handed on), header order and
/// repeated fields are merged by `HTTPURLResponse` and `URLRequest`, a one-shot stream body is
/// spooled to a temporary file first because streamed request bodies do not work there, and a
/// body read slower than it arrives is buffered (there is no working flow control). That buffer
/// is bounded only where it reaches this transport (64 MiB not yet read fails the exchange):
/// FoundationNetworking itself reads ahead of its delegate queue without limit, so against a
/// fast endless body only `AsyncHTTPClientTransport` guarantees bounded memory.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let router: URLSessionTaskRouter
    private let isShutDown = Mutex(false)

    /// Creates a transport with its own `URLSession`, configured from a session configuration:
    /// its transport's idle timeout and connection limit, and the resource timeout.
    ///
    /// - Throws: ``/JewzHTTPCore/HTTPError/Code/invalidConfiguration`` naming the setting, when the
    ///   configuration asks for what `URLSession` cannot be told on Linux: TLS roots (added or
    ///   replaced), verification other than full, a client certificate, a minimum TLS version
    ///   other than 1.2, pins, HTTP/1.1 only, proxies, a Unix domain socket. Its TLS and
    ///   proxies are libcurl's own; `AsyncHTTPClientTransport` honours them all.
    public init(configuration: HTTPSession.Configuration = .init()) throws(HTTPError) {
        if let setting = Self.unsupportedSetting(in: configuration.transport) {
            throw HTTPError.invalidConfiguration(
                "URLSessionTransport cannot honour transport.\(setting) (FoundationNetworking takes TLS and proxies from libcurl); use AsyncHTTPClientTransport, or leave it unset")
        }
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.transport.timeouts.idle.inSeconds
        sessionConfiguration.timeoutIntervalForResource = configuration.timeoutForResource?.inSeconds ?? 7 * 86_400
        sessionConfiguration.httpMaximumConnectionsPerHost = configuration.transport.connectionPool.maximumConnectionsPerHost
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        router = URLSessionTaskRouter()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: sessionConfiguration, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// The first setting of `transport` this transport would have to ignore, by its path.
    private static func unsupportedSetting(in transport: AsyncHTTPClientTransport.Configuration) -> String? {
        let tls = transport.tls
        if case .only = tls.trustRoots { return "tls.trustRoots" }
        let unsupported: [(String, Bool)] = [
            ("tls.additionalTrustRoots", !tls.additionalTrustRoots.isEmpty), ("tls.verification", tls.verification != .full),
            ("tls.clientIdentity", tls.clientIdentity != nil), ("tls.minimumVersion", tls.minimumVersion != .tls12),
            ("tls.pinning", tls.pinning != nil), ("httpVersion", transport.httpVersion != .automatic),
            ("proxies", transport.proxies != nil), ("unixSocketPath", transport.unixSocketPath != nil),
        ]
        return unsupported.first { $0.1 }?.0
    }

    /// Sends `request` through the URLSession and hands the response to `receiver` as it arrives.
    public func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?,
        to receiver: inout some HTTPResponseReceiver
    ) async throws {
        if isShutDown.withLock({ $0 }) { throw HTTPError.sessionShutDown }
        guard !request.url.isUnixSocketURL else {
            throw HTTPError.invalidConfiguration("URLSessionTransport cannot reach a Unix domain socket (\(request.url.redactedString)); use AsyncHTTPClientTransport")
        }
        guard request.dedicatedConnection == nil else {
            throw HTTPError.invalidConfiguration(
                "URLSessionTransport cannot keep a handshake's requests (NTLM) on one connection; use AsyncHTTPClientTransport")
        }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        // Foundation's per-request timeout is an idle timeout, as ours is.
        if let idleTimeout = request.idleTimeout { urlRequest.timeoutInterval = idleTimeout.inSeconds }
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
        let exchange = URLSessionExchange(task: task, onBodySent: onBodySent)
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

        receiver.exchangeDidStart(exchange)
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
                    exchange.took(data.count)
                    try await receiver.waitForDemand()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Invalidates the URLSession, cancelling what is in flight.
    public func shutdown() async throws {
        let wasShutDown = isShutDown.withLock { state in
            defer { state = true }
            return state
        }
        if !wasShutDown { session.invalidateAndCancel() }
    }

    /// Writes a body to a temporary file, chunk by chunk.
    private static func spool(_ chunks: some AsyncSequence<Data, any Error>) async throws -> URL {
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
