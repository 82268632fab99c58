import AsyncHTTPClient
import Foundation
import JewzLocking
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
import struct Synchronization.Atomic
import Tracing

/// The default transport: AsyncHTTPClient's pooled clients (HTTP/1.1, and HTTP/2 by ALPN;
/// TLS via NIOSSL), one per event loop of the shared group: a request to an HTTP/1.1 origin goes
/// through the least busy, one to an HTTP/2 origin through that origin's own, so that it gets
/// one connection (see `ClientLane` and `LaneSet`). ``Configuration`` says how it connects: timeouts, pool, TLS,
/// HTTP version, proxies.
///
/// AsyncHTTPClient's own decompression stays off: content decoding belongs to the session's
/// decoders. Connection establishment is not retried inside the client, so a refused
/// connection surfaces at once and the session's retry policy decides what happens next.
/// The idle timeout is kept by an `IdleWatchdog` rather than AsyncHTTPClient's read timeout,
/// and a request's `timeout` bounds the whole exchange, body included.
///
/// - Important: AsyncHTTPClient 1.37 traps, ending the process, when a server answers with a
///   status below 100 (`HTTP/1.1 099 X`): the trap is inside its channel handler, before any
///   hook of ours. Send requests to servers you do not control that might do so through
///   JewzURLSession's `URLSessionTransport` (which reports ``HTTPError/Code/invalidResponse``) or from a
///   process of their own; `Tools/Upstream/async-http-client` holds the fix.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// The lanes of direct connections.
    private let lanes: LaneSet
    /// The lanes through each proxy in use; empty without proxies.
    private let proxiedLanes: [Configuration.Proxy: LaneSet]
    private let proxies: Configuration.Proxies?
    /// Pinned hosts' TLS; `nil` without pins, which costs other requests one check.
    private let pinnedTLS: PinnedTLS?
    private let ownsClients: Bool
    /// Where every request goes when set (``Configuration-swift.struct/unixSocketPath``).
    private let unixSocketPath: String?
    /// What a dedicated connection's client is made from; `nil` for a client the caller made,
    /// whose configuration cannot be read.
    private let dedicatedSettings: (configuration: Configuration, tracer: (any Tracer)?)?
    /// Read by every request: an atomic load, where a lock would bounce its line between cores.
    private let isShutDown = Atomic(false)

    /// Creates a transport with its own clients.
    ///
    /// The pool's `maximumConnectionsPerHost` is shared out among the event loops (fewer loops
    /// are used when the limit is lower than their number), so it holds for the whole
    /// transport. It starts no spans of its own: a session's tracing stages trace each run and
    /// each exchange (``HTTPSession/Configuration/tracer``).
    public convenience init(configuration: Configuration = .init()) {
        self.init(configuration: configuration, tracer: nil)
    }

    /// Creates a transport whose clients start a span with `tracer` for each request (`nil`:
    /// no spans), as ``init(configuration:)`` otherwise.
    ///
    /// The no-op tracer (what `InstrumentationSystem` gives when nothing was bootstrapped)
    /// counts as none. Why: AsyncHTTPClient starts and fills a span with it for every request,
    /// though it records nothing, and its cast, task-local lookup and attribute dictionary are
    /// a measured share of a small GET's CPU.
    package init(configuration: Configuration, tracer: (any Tracer)?) {
        let tracer = Self.spanTracer(tracer)
        lanes = Self.makeLanes(configuration, proxy: nil, tracer: tracer)
        let inUse = Set([configuration.proxies?.http, configuration.proxies?.https].compactMap { $0 })
        proxiedLanes = Dictionary(uniqueKeysWithValues: inUse.map { ($0, Self.makeLanes(configuration, proxy: $0, tracer: tracer)) })
        proxies = configuration.proxies
        pinnedTLS = configuration.tls.pinning.map {
            PinnedTLS(pinning: $0, base: configuration.tls.nioConfiguration(allowsHTTP2: configuration.httpVersion.allowsHTTP2))
        }
        ownsClients = true
        unixSocketPath = configuration.unixSocketPath
        dedicatedSettings = (configuration, tracer)
    }

    /// A client per event loop in use, with its watchdog, connecting directly or through `proxy`.
    private static func makeLanes(_ configuration: Configuration, proxy: Configuration.Proxy?, tracer: (any Tracer)?) -> LaneSet {
        let limit = max(configuration.connectionPool.maximumConnectionsPerHost, 1)
        let eventLoops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator().prefix(limit))
        var clientConfiguration = Self.clientConfiguration(configuration, proxy: proxy, tracer: tracer)
        return LaneSet(eventLoops.enumerated().map { index, eventLoop in
            clientConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit =
                limit / eventLoops.count + (index < limit % eventLoops.count ? 1 : 0)
            return ClientLane(
                client: HTTPClient(eventLoopGroup: eventLoop, configuration: clientConfiguration),
                watchdog: IdleWatchdog(timeout: configuration.timeouts.idle, eventLoop: eventLoop),
                wakes: WakeBatch(eventLoop: eventLoop))
        })
    }

    /// AsyncHTTPClient's configuration for a client of this transport's lanes.
    private static func clientConfiguration(
        _ configuration: Configuration, proxy: Configuration.Proxy?, tracer: (any Tracer)?
    ) -> HTTPClient.Configuration {
        var clientConfiguration = HTTPClient.Configuration(
            tlsConfiguration: configuration.tls.nioConfiguration(allowsHTTP2: configuration.httpVersion.allowsHTTP2),
            // The cycle follows redirects, with one policy for every transport.
            redirectConfiguration: .disallow,
            timeout: .init(connect: TimeAmount(configuration.timeouts.connect)),
            proxy: proxy.map(Self.clientProxy),
            decompression: .disabled)
        clientConfiguration.httpVersion = configuration.httpVersion.allowsHTTP2 ? .automatic : .http1Only
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        clientConfiguration.tracing.tracer = tracer
        return clientConfiguration
    }

    /// The lane of `connection`, made for its first exchange: a client of one HTTP/1.1
    /// connection on one event loop, connecting as this transport's lanes to `url` do.
    ///
    /// - Throws: ``HTTPError/Code/invalidConfiguration`` for a transport made from the caller's
    ///   client, or when `connection` was closed.
    @inline(never)
    private func dedicatedLane(of connection: DedicatedConnection, for url: URL) throws(HTTPError) -> ClientLane {
        guard let (configuration, tracer) = dedicatedSettings else {
            throw .invalidConfiguration(
                "a transport made from your own HTTPClient cannot keep a handshake's requests (NTLM) on one connection; make it with AsyncHTTPClientTransport(configuration:)")
        }
        return try connection.lane {
            let proxy = unixSocketPath == nil && !url.isUnixSocketURL ? proxies?.proxy(for: url) : nil
            var clientConfiguration = Self.clientConfiguration(configuration, proxy: proxy, tracer: tracer)
            clientConfiguration.httpVersion = .http1Only
            clientConfiguration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
            let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
            return ClientLane(
                client: HTTPClient(eventLoopGroup: eventLoop, configuration: clientConfiguration),
                watchdog: IdleWatchdog(timeout: configuration.timeouts.idle, eventLoop: eventLoop),
                wakes: WakeBatch(eventLoop: eventLoop))
        }
    }

    private static func clientProxy(_ proxy: Configuration.Proxy) -> HTTPClient.Configuration.Proxy {
        switch proxy.kind {
        case .socks5:
            return .socksServer(host: proxy.host, port: proxy.port)
        case .http:
            guard let credentials = proxy.credentials else { return .server(host: proxy.host, port: proxy.port) }
            return .server(
                host: proxy.host, port: proxy.port,
                authorization: .basic(username: credentials.user, password: credentials.password))
        }
    }

    /// The lanes a request to `url` goes down: direct unless a proxy is configured for it (a
    /// Unix domain socket is never reached through one).
    private func lanes(for url: URL) -> LaneSet {
        guard let proxies, unixSocketPath == nil, !url.isUnixSocketURL, let proxy = proxies.proxy(for: url) else { return lanes }
        return proxiedLanes[proxy] ?? lanes
    }

    /// The tracer AsyncHTTPClient is given: `tracer`, unless it is the no-op tracer, which
    /// records nothing and would still cost every request a span (see ``init(configuration:tracer:)``).
    static func spanTracer(_ tracer: (any Tracer)?) -> (any Tracer)? {
        tracer is NoOpTracer ? nil : tracer
    }

    /// Wraps a client the caller owns and shuts down; its configuration's timeouts apply.
    public init(client: HTTPClient) {
        lanes = LaneSet([ClientLane(client: client, watchdog: nil, wakes: nil)])
        proxiedLanes = [:]
        proxies = nil
        pinnedTLS = nil
        ownsClients = false
        unixSocketPath = nil
        dedicatedSettings = nil
    }

    deinit {
        // A client that is dropped without shutdown traps in debug builds; shut it down here
        // so a session can simply go out of scope.
        if ownsClients, !isShutDown.load(ordering: .acquiring) {
            for lane in allLanes { _ = lane.client.shutdown() }
        }
    }

    private var allLanes: [ClientLane] { lanes.lanes + proxiedLanes.values.flatMap(\.lanes) }

    // Inlined into the transport stage, whose frame then holds this one's.
    @inline(__always)
    nonisolated(nonsending) public func send(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?,
        to receiver: inout some HTTPResponseReceiver
    ) async throws {
        if isShutDown.load(ordering: .acquiring) { throw HTTPError.sessionShutDown }
        // The lanes to tell the response's version, with the origin it settles.
        let unsettled: (laneSet: LaneSet, origin: String)?
        let lane: ClientLane
        if let connection = request.dedicatedConnection {
            lane = try dedicatedLane(of: connection, for: request.url)
            unsettled = nil
        } else {
            let laneSet = lanes(for: request.url)
            let route = laneSet.lane(for: request.url)
            lane = route.lane
            unsettled = route.unsettledOrigin.map { (laneSet, $0) }
        }
        let exchange = try start(request, timeout: timeout, onBodySent: onBodySent, on: lane)
        lane.load.add(1, ordering: .relaxed)
        lane.watchdog?.watch(exchange)
        receiver.exchangeDidStart(exchange)
        defer {
            lane.watchdog?.unwatch(exchange)
            lane.load.subtract(1, ordering: .relaxed)
        }
        // The body's bytes so far once the head came, for a failure's message; `nil` before it.
        var bodyBytes: Int?
        try await withTaskCancellationHandler {
            do {
                guard case .head(let head, let url) = try await exchange.next() else {
                    throw HTTPError.transport(reason: "the response ended before its head")
                }
                // A request sent to a socket answers for the URL it was given.
                try Self.deliver(head, url: unixSocketPath == nil ? url ?? request.url : request.url, to: &receiver)
                if let unsettled {
                    unsettled.laneSet.note(HTTPVersion(major: head.version.major, minor: head.version.minor), from: unsettled.origin)
                }
                bodyBytes = 0
                while case .body(let parts) = try await exchange.next() {
                    bodyBytes? += try Self.deliver(parts, to: &receiver)
                    try await receiver.waitForDemand()
                }
            } catch {
                // Asked before the cancel below, which would make every failure look asked for.
                let unsent = exchange.wasDroppedUnsent(by: error)
                // The receiver may have refused the response: the connection must not wait for it.
                exchange.cancel()
                let progress: NetworkFailure.Progress =
                    if let bodyBytes { .readingBody(bodyBytes) }
                    else if exchange.hasSentRequestHead.load(ordering: .relaxed) { .waitingForResponse }
                    else { .connecting }
                let error =
                    unsent
                    ? HTTPError.network(
                        .connectionLost, NetworkFailure(host: request.url.host, port: request.url.effectivePort, event: .notSent, progress: .connecting),
                        underlying: error)
                    : HTTPError(transportError: error, url: request.url, progress: progress)
                if error.code == .certificateRejected, let pinnedTLS {
                    throw await Self.pinningFailure(error, url: request.url, pinnedTLS: pinnedTLS)
                }
                throw error
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// Hands `request` to the lane's client and returns the exchange that receives its answer.
    /// Not inlined: AsyncHTTPClient's request would otherwise sit in ``send(_:timeout:onBodySent:to:)``'s
    /// async frame, which every request allocates and touches again when its response comes.
    @inline(never)
    private func start(
        _ request: HTTPRequest, timeout: Duration?, onBodySent: (@Sendable (Int) -> Void)?, on lane: ClientLane
    ) throws -> ClientExchange {
        let exchange = ClientExchange(
            onBodySent: onBodySent, wakes: lane.wakes,
            idleLimit: request.idleTimeout.map { UInt64(max(TimeAmount($0).nanoseconds, 1)) })
        do {
            // Made whole rather than field by field: `add` checks every byte of each name for
            // ASCII, which the cycle's check (names are tokens) has already covered.
            var headers = HTTPHeaders(request.headers.fields.map { ($0.name, $0.value) })
            var url = request.url
            if unixSocketPath != nil || url.isUnixSocketURL { url = try Self.socketURL(of: request, on: unixSocketPath, headers: &headers) }
            let outgoing = try lane.requestMemo.request(
                url: url, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue), headers: headers,
                body: try body(of: request, reportingProgress: onBodySent != nil, eventLoop: lane.client.eventLoopGroup.next()),
                tlsConfiguration: pinnedTLS.flatMap { pinned in request.url.host.flatMap(pinned.configuration(forHost:)) })
            let deadline = timeout.map { NIODeadline.now() + TimeAmount($0) }
            exchange.attach(lane.client.execute(request: outgoing, delegate: exchange, eventLoop: .indifferent, deadline: deadline))
        } catch {
            throw HTTPError(transportError: error)
        }
        return exchange
    }

    /// The URL that takes `request` to a Unix domain socket — `socketPath`, or the one its
    /// `http+unix` URL names — with the `Host` field AsyncHTTPClient leaves out for sockets:
    /// the URL's authority, or `localhost` for a socket URL.
    ///
    /// - Throws: ``HTTPError/Code/invalidURL`` for a URL that cannot be sent to a socket.
    private static func socketURL(of request: HTTPRequest, on socketPath: String?, headers: inout HTTPHeaders) throws(HTTPError) -> URL {
        let host = request.url.isUnixSocketURL ? "localhost" : request.url.hostField
        if !headers.contains(name: "Host"), let host { headers.add(name: "Host", value: host) }
        guard let socketPath, !request.url.isUnixSocketURL else { return request.url }
        guard let url = request.url.onUnixSocket(socketPath) else { throw .invalidURL(request.url.absoluteString) }
        return url
    }

    /// `error` for a pinned host, told as a pin mismatch listing what the server presented.
    @inline(never)
    private static func pinningFailure(_ error: HTTPError, url: URL, pinnedTLS: PinnedTLS) async -> HTTPError {
        guard let host = url.host else { return error }
        let pinned = pinnedTLS.pins(forHost: host)
        guard !pinned.isEmpty else { return error }
        // A bound for a courtesy of the message: a server that answered a handshake moments ago
        // answers another in milliseconds, but a starved machine can take seconds.
        let served = (try? await Self.pins(servedBy: host, port: url.effectivePort, timeout: .seconds(15))) ?? []
        return .pinMismatch(host: host, served: served, pins: pinned)
    }

    /// Hands the receiver a response head. Not inlined, like ``deliver(_:to:)``: the receiver's
    /// work would otherwise widen the async frame every exchange allocates and touches.
    @inline(never)
    private static func deliver(_ head: HTTPResponseHead, url: URL, to receiver: inout some HTTPResponseReceiver) throws {
        let headers = HTTPHeaderFields(head.headers.lazy.map { ($0.name, $0.value) })
        receiver.receiveVersion(HTTPVersion(major: head.version.major, minor: head.version.minor))
        try receiver.receiveHead(statusCode: Int(head.status.code), headers: headers, url: url)
    }

    /// Hands the receiver parts of the body, in order, and returns how many bytes they held.
    @inline(never)
    private static func deliver(_ parts: [ByteBuffer], to receiver: inout some HTTPResponseReceiver) throws -> Int {
        var count = 0
        for part in parts {
            count += part.readableBytes
            try part.withUnsafeReadableBytes { try receiver.receiveBody($0) }
        }
        return count
    }

    public func shutdown() async throws {
        let wasShutDown = isShutDown.exchange(true, ordering: .acquiringAndReleasing)
        if ownsClients, !wasShutDown {
            for lane in allLanes { try await lane.client.shutdown() }
        }
    }
}
