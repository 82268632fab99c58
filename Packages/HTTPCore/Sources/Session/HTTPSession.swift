import Dispatch
import Foundation
import JewzLocking
import Logging
import struct Synchronization.Atomic

/// Owns a transport and the policies its cycles share: processors, authentications, the
/// processor and content-coding registries, the status-code policy and the queue completion
/// handlers run on.
///
/// A cycle whose own `requestProcessors`, `responseProcessors` or `authentications` is `nil`
/// uses the session's (the seed's "backing properties").
///
/// ```swift
/// let session = HTTPSession()
/// session.requestProcessors = [HTTPDataProcessor()]
/// let cycle = try await HTTPCycle.get("https://example.com", session: session)
/// try await session.shutdown()
/// ```
public final class HTTPSession: Sendable {
    /// Timeouts, limits and headers that hold for every request of a session.
    public struct Configuration: Sendable {
        /// How the default transport connects: timeouts, connection pool, TLS, HTTP version,
        /// proxies. Ignored when the session is given a transport of its own.
        public var transport = AsyncHTTPClientTransport.Configuration()
        /// The longest a whole request may take, retries and their waits included; `nil` for
        /// no limit. A request's own `timeout` overrides it.
        public var timeoutForResource: Duration? = nil
        /// Whether redirects (301, 302, 303, 307, 308 with a `Location`) are followed. The
        /// cycle follows them, the same way on every transport: 303 (and 301/302 after a POST)
        /// becomes a GET without body; 307/308 resend method and body. `Authorization`,
        /// `Proxy-Authorization` and `Cookie` are never sent to another origin.
        public var followsRedirects = true
        /// How many redirects one exchange may follow; one more fails with
        /// ``HTTPError/Code/tooManyRedirects``. A URL visited twice fails sooner, with
        /// ``HTTPError/Code/redirectLoop``.
        public var maximumRedirects = 10
        /// Whether a redirect may leave https for http; when not (the default), it fails with
        /// ``HTTPError/Code/insecureRedirect``.
        public var allowsInsecureRedirects = false
        /// The largest body kept in memory, after content decoding; a larger one fails with
        /// ``HTTPError/Code/responseTooLarge`` (before a byte is read when `Content-Length`
        /// says so). 100 MiB: more than an API document needs (the benchmarks' largest JSON
        /// body is 50 MB), little enough that a server sending without end cannot take the
        /// process's memory. Downloads and streamed bodies have no limit. The body of a
        /// failing status, always kept in memory, keeps at most its first MiB (or this limit,
        /// if lower): the status error stands, with the body cut there.
        public var maximumResponseBodySize: Int = 100 << 20
        /// Where the string forms of ``HTTPCycle`` resolve a URL without a scheme: the session
        /// as an API client (`HTTPCycle.get("/users/42", session: api)`).
        public var baseURL: URL?
        /// The session's cookies: `nil` (the default) sends and keeps none; a jar stores every
        /// response's `Set-Cookie` (redirects included) and sends what matches, on any transport.
        public var cookieJar: HTTPCookieJar?
        /// The session's HTTP cache: `nil` (the default) asks none. JewzCache's `HTTPCache`
        /// keeps responses in memory or on disk by RFC 9111's rules (``HTTPResponseCache``).
        public var cache: (any HTTPResponseCache)?
        /// Headers added to every request that does not set them itself.
        public var additionalHeaders: HTTPHeaderFields = ["User-Agent": "Jewzruxin/0.1"]

        public init() {}
    }

    /// The session cycles use when none is given. It lives as long as the process, made on
    /// first use from what ``configureDefault(_:transport:)`` set, if anything.
    public static let `default` = HTTPSession.makeDefault()

    public let configuration: Configuration
    public let transport: any HTTPTransport
    /// ``transport`` when it is an ``AsyncHTTPClientTransport``: called directly, its generic
    /// `send` is specialized for the cycle's collector instead of running through witness
    /// tables and runtime metadata for every request.
    let defaultTransport: AsyncHTTPClientTransport?
    /// The queue completion handlers are called on (serial unless you pass another).
    public let completionQueue: DispatchQueue
    public let logger: Logger

    /// The settings a run reads: one immutable object that every change replaces, so that a
    /// run's snapshot is one reference. Copying the fields instead cost a retain and a release
    /// of each, on objects every concurrent run shares.
    final class Settings: Sendable {
        struct Values {
            var requestProcessors: [any HTTPProcessor] = []
            var responseProcessors: [any HTTPProcessor] = []
            var authentications: [any HTTPAuthentication] = []
            var processorRegistry: ProcessorRegistry
            var contentCodings: ContentCodingRegistry
            var shouldTreatStatusCodeAsFailure: @Sendable (Int) -> Bool = { $0 >= 400 }
            /// Boxed, so that a run takes it with one retain (see ``RunSnapshot/retryPolicy``).
            var retryPolicy = Boxed(RetryPolicy())
            var coalescesIdenticalGETs = false
            var eventMonitors: [any HTTPEventMonitor] = []
        }

        let values: Values

        init(_ values: Values) {
            self.values = values
        }
    }

    private let settings: Mutex<Settings>

    /// The current settings, read once per run so that concurrent cycles do not contend on
    /// the session's lock for every stage.
    func snapshot() -> Settings {
        settings.withLock { $0 }
    }

    /// Whether ``eventMonitors`` is not empty: read by every new cycle without taking the lock.
    let hasEventMonitors = Atomic(false)

    private func update(_ change: (inout Settings.Values) -> Void) {
        settings.withLock { settings in
            var values = settings.values
            change(&values)
            settings = Settings(values)
            hasEventMonitors.store(!values.eventMonitors.isEmpty, ordering: .releasing)
        }
    }

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - transport: the transport to use; by default an ``AsyncHTTPClientTransport`` made
    ///     from `configuration`, which the session shuts down.
    ///   - processorRegistry: where responses without explicit processors find theirs.
    public init(
        configuration: Configuration = .init(), transport: (any HTTPTransport)? = nil,
        processorRegistry: ProcessorRegistry = .shared, contentCodings: ContentCodingRegistry = .shared,
        completionQueue: DispatchQueue = DispatchQueue(label: "jewzruxin.session.completion"),
        logger: Logger = Logger(label: "jewzruxin")
    ) {
        self.configuration = configuration
        let transport = transport ?? AsyncHTTPClientTransport(configuration: configuration.transport)
        self.transport = transport
        defaultTransport = transport as? AsyncHTTPClientTransport
        self.completionQueue = completionQueue
        self.logger = logger
        settings = Mutex(Settings(Settings.Values(processorRegistry: processorRegistry, contentCodings: contentCodings)))
    }

    /// Processors for cycles that have none of their own.
    public var requestProcessors: [any HTTPProcessor] {
        get { settings.withLock { $0.values.requestProcessors } }
        set { update { $0.requestProcessors = newValue } }
    }

    /// Processors for cycles that have none of their own; when empty, the registry decides.
    public var responseProcessors: [any HTTPProcessor] {
        get { settings.withLock { $0.values.responseProcessors } }
        set { update { $0.responseProcessors = newValue } }
    }

    /// Authentications for cycles that have none of their own.
    public var authentications: [any HTTPAuthentication] {
        get { settings.withLock { $0.values.authentications } }
        set { update { $0.authentications = newValue } }
    }

    /// The registry that picks processors by the response's Content-Type.
    public var processorRegistry: ProcessorRegistry {
        get { settings.withLock { $0.values.processorRegistry } }
        set { update { $0.processorRegistry = newValue } }
    }

    /// The decoders for `Content-Encoding`; their tokens are advertised in `Accept-Encoding`.
    public var contentCodings: ContentCodingRegistry {
        get { settings.withLock { $0.values.contentCodings } }
        set { update { $0.contentCodings = newValue } }
    }

    /// Decides whether a status code fails the cycle with ``HTTPError/statusCode(_:)``
    /// (the seed's `sessionShouldTreatStatusCodeAsFailure`). Default: `>= 400`.
    public var shouldTreatStatusCodeAsFailure: @Sendable (Int) -> Bool {
        get { settings.withLock { $0.values.shouldTreatStatusCodeAsFailure } }
        set { update { $0.shouldTreatStatusCodeAsFailure = newValue } }
    }

    /// When failed requests are sent again; a cycle's own policy overrides it.
    public var retryPolicy: RetryPolicy {
        get { settings.withLock { $0.values.retryPolicy.value } }
        set { update { $0.retryPolicy = Boxed(newValue) } }
    }

    /// Counts the session's running cycles and reports each change (the seed's network activity
    /// indicator, without the platform).
    let activity = NetworkActivity()

    /// Called with the number of running cycles whenever it changes, in order, on a serial
    /// queue of its own. `nil` (the default) reports nothing.
    public var activityHandler: (@Sendable (Int) -> Void)? {
        get { activity.handler }
        set { activity.handler = newValue }
    }

    /// Monitors told of every event of every cycle of the session.
    public var eventMonitors: [any HTTPEventMonitor] {
        get { settings.withLock { $0.values.eventMonitors } }
        set { update { $0.eventMonitors = newValue } }
    }

    /// Whether identical GETs in flight (same URL and headers) share one exchange; off by default.
    /// Each waiter gets the response; one waiter cancelling does not cancel the others.
    public var coalescesIdenticalGETs: Bool {
        get { settings.withLock { $0.values.coalescesIdenticalGETs } }
        set { update { $0.coalescesIdenticalGETs = newValue } }
    }

    let coalescer = RequestCoalescer()

    /// Admits requests to the network (JustAPIs' request queue).
    let queue = RequestQueue()

    /// How many requests may be on the wire at once; `nil` (the default) for no limit.
    public var maximumActiveRequests: Int? {
        get { queue.maximumActive }
        set { queue.maximumActive = newValue }
    }

    /// Holds every request that has not started sending until ``resume()``; requests on the
    /// wire continue.
    public func pause() { queue.pause() }

    /// Lets held requests go, by priority.
    public func resume() { queue.resume() }

    /// Whether the session holds new requests.
    public var isPaused: Bool { queue.isPaused }

    /// The cycles waiting to be sent, in the order they will go.
    public var pendingCycles: [HTTPCycle] { queue.pending }

    /// Shuts the transport down; later requests fail with ``HTTPError/sessionShutDown``.
    public func shutdown() async throws {
        try await transport.shutdown()
    }
}
