import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import Synchronization

/// The default transport: AsyncHTTPClient's pooled client (HTTP/1.1 and HTTP/2, TLS via
/// NIOSSL), one client per session.
///
/// AsyncHTTPClient's own decompression stays off: content decoding belongs to the session's
/// decoders. Connection establishment is not retried inside the client, so a refused
/// connection surfaces at once and the session's retry policy decides what happens next.
public final class AsyncHTTPClientTransport: HTTPTransport {
    private let client: HTTPClient
    private let eventLoops: any EventLoopGroup
    private let ownsClient: Bool
    private let isShutDown = Mutex(false)

    /// Creates a transport with its own client, configured from a session configuration.
    public init(configuration: HTTPSession.Configuration = .init()) {
        var clientConfiguration = HTTPClient.Configuration(
            redirectConfiguration: configuration.followsRedirects
                ? .follow(max: configuration.maximumRedirects, allowCycles: false) : .disallow,
            timeout: .init(
                connect: TimeAmount(configuration.connectTimeout),
                read: TimeAmount(configuration.timeoutForRequest)),
            decompression: .disabled)
        clientConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit =
            configuration.maximumConnectionsPerHost
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        eventLoops = MultiThreadedEventLoopGroup.singleton
        client = HTTPClient(eventLoopGroup: eventLoops, configuration: clientConfiguration)
        ownsClient = true
    }

    /// Wraps a client the caller owns and shuts down.
    public init(client: HTTPClient) {
        self.client = client
        eventLoops = client.eventLoopGroup
        ownsClient = false
    }

    deinit {
        // A client that is dropped without shutdown traps in debug builds; shut it down here
        // so a session can simply go out of scope.
        if ownsClient, !isShutDown.withLock({ $0 }) {
            _ = client.shutdown()
        }
    }

    public func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?,
        to receiver: inout some HTTPResponseReceiver
    ) async throws {
        if isShutDown.withLock({ $0 }) { throw HTTPError.sessionShutDown }
        let urlString = request.url.absoluteString
        var outgoing = HTTPClientRequest(url: urlString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers.reserveCapacity(request.headers.fields.count)
        for field in request.headers {
            outgoing.headers.add(name: field.name, value: field.value)
        }
        if case .data(let data)? = request.body, onBodySent == nil {
            // Bytes in one piece when nobody watches: the fastest way for small bodies.
            outgoing.body = .bytes(ByteBuffer(data: data))
        } else if let body = request.body {
            // AsyncHTTPClient never consumes a stream body twice: it returns a 307/308 as is
            // instead of following it, and the cycle reports that.
            let chunks = try body.chunks(reporting: onBodySent)
            outgoing.body = .stream(
                PacedBody(chunks: chunks, eventLoops: eventLoops), length: chunks.length.map { .known(Int64($0)) } ?? .unknown)
        }
        let deadline = timeout.map { NIODeadline.now() + TimeAmount($0) } ?? .distantFuture
        do {
            let response = try await client.execute(outgoing, deadline: deadline)
            let headers = HTTPHeaderFields(response.headers.lazy.map { ($0.name, $0.value) })
            // The final URL is parsed again only when a redirect changed it.
            let finalURL = response.history.last.map(\.request.url) ?? urlString
            let url = finalURL == urlString ? request.url : URL(string: finalURL) ?? request.url
            try receiver.receiveHead(statusCode: Int(response.status.code), headers: headers, url: url)
            for try await buffer in response.body {
                try buffer.withUnsafeReadableBytes { try receiver.receiveBody($0) }
                try await receiver.waitForDemand()
            }
        } catch {
            throw HTTPError(transportError: error)
        }
    }

    public func shutdown() async throws {
        let wasShutDown = isShutDown.withLock { state in
            defer { state = true }
            return state
        }
        if ownsClient, !wasShutDown {
            try await client.shutdown()
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self = nanoseconds.overflow ? .nanoseconds(.max) : .nanoseconds(nanoseconds.partialValue + attoseconds / 1_000_000_000)
    }
}

extension HTTPError {
    /// Classifies an AsyncHTTPClient or SwiftNIO error, so that callers can tell a request the
    /// server never saw from one that broke on the way.
    init(transportError error: any Error) {
        switch error {
        case let error as HTTPError:
            self = error
        case is CancellationError:
            self = .cancelled(explicitly: false)
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .readTimeout, .writeTimeout, .deadlineExceeded,
                .getConnectionFromPoolTimeout, .tlsHandshakeTimeout:
                self = .timedOut
            case .cancelled, .requestStreamCancelled:
                self = .cancelled(explicitly: false)
            case .remoteConnectionClosed:
                self = .connectionLost(reason: "the server closed the connection")
            case .invalidURL, .emptyHost, .emptyScheme:
                self = .invalidURL(String(describing: error))
            case .alreadyShutdown:
                self = .sessionShutDown
            default:
                self = .transport(reason: String(describing: error))
            }
        case is NIOConnectionError:
            self = .connectionFailed(reason: String(describing: error))
        case let error as IOError where [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL].contains(error.errnoCode):
            self = .connectionFailed(reason: String(describing: error))
        case let error as IOError where [ECONNRESET, EPIPE].contains(error.errnoCode):
            self = .connectionLost(reason: String(describing: error))
        case HTTPParserError.invalidEOFState:
            self = .connectionLost(reason: "the connection closed before the response was complete")
        case ChannelError.connectTimeout(_):
            self = .timedOut
        case ChannelError.eof, ChannelError.ioOnClosedChannel, ChannelError.outputClosed:
            self = .connectionLost(reason: String(describing: error))
        default:
            self = .transport(reason: String(describing: error))
        }
    }
}

