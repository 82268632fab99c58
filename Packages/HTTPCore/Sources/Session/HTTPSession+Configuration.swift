import CoreMetrics
import Dispatch
import Foundation
import Logging
import Tracing

extension HTTPSession {
    /// Every setting of a session, in one value: what its transport connects with, the
    /// policies its calls share, and the steps its requests go through.
    ///
    /// Give it to ``HTTPSession/init(configuration:)`` (or ``HTTPSession/configureDefault(_:)``), and
    /// change it later with ``HTTPSession/update(_:)``; a change applies from the next call on
    /// (a cycle's next start). A call's ``HTTPRequestOptions`` (processors, authentications,
    /// retry policy) override the session's.
    ///
    /// ```swift
    /// var configuration = HTTPSession.Configuration()
    /// configuration.baseURL = URL(string: "https://api.example.com/v1")
    /// configuration.retryPolicy.retryableStatusCodes.insert(429)
    /// configuration.middleware = [HTTPHeaderMiddleware(["X-Client": "example/1.0"])]
    /// let session = HTTPSession(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        // MARK: The transport

        /// How the default transport connects: timeouts, connection pool, TLS, HTTP version,
        /// proxies. A change through ``HTTPSession/update(_:)`` makes a new transport for the
        /// requests that start after it. A session given a transport of its own ignores these,
        /// and refuses to change them.
        public var transport = AsyncHTTPClientTransport.Configuration() {
            didSet { transportRevision &+= 1 }
        }
        /// Counts changes to ``transport``, so that ``HTTPSession/update(_:)`` can tell one.
        var transportRevision = 0
        /// A transport of your own — a `MockTransport`, `URLSessionTransport`, one that wraps
        /// another — used instead of one made from ``transport``, whose settings it ignores.
        /// `nil` (the default) makes an ``AsyncHTTPClientTransport``. Either way the session's
        /// ``HTTPSession/shutdown()`` shuts it down. Chosen when the session is made: a session
        /// does not change its transport for one of another kind.
        public var customTransport: (any HTTPTransport)? {
            didSet { customTransportRevision &+= 1 }
        }
        /// Counts changes to ``customTransport``, so that ``HTTPSession/update(_:)`` can refuse one.
        var customTransportRevision = 0

        // MARK: The request path

        /// Steps around each whole call, first to last: each sees the request once,
        /// as the caller made it (processors applied), and the final response, after retries,
        /// redirects and challenges. See ``HTTPMiddleware``.
        public var middleware: [any HTTPMiddleware] = []
        /// Steps around each exchange on the network, first to last: each sees every attempt
        /// and every redirect hop as it goes on the wire (credentials and cookies added), and
        /// is skipped when the cache answers.
        public var networkMiddleware: [any HTTPMiddleware] = []
        /// When failed requests are sent again; a call's own policy overrides it.
        public var retryPolicy = RetryPolicy()
        /// Whether redirects (301, 302, 303, 307, 308 with a `Location`) are followed. The
        /// call follows them, the same way on every transport: 303 (and 301/302 after a POST)
        /// becomes a GET without body; 307/308 resend method and body. Credentials stay with
        /// the origin the call started at (see ``sendsCredentialsAcrossRedirects``). A call
        /// can follow fewer (``HTTPRequestOptions/redirects``).
        public var followsRedirects = true
        /// How many redirects one exchange may follow; one more fails with
        /// ``HTTPError/Code/tooManyRedirects``. A URL visited twice fails sooner, with
        /// ``HTTPError/Code/redirectLoop``.
        public var maximumRedirects = 10
        /// Whether a redirect may leave https for http; when not (the default), it fails with
        /// ``HTTPError/Code/insecureRedirect``.
        public var allowsInsecureRedirects = false
        /// Whether credentials follow a redirect to another origin than the one the call
        /// started at, as curl's `--location-trusted` lets them. `false` (the default): a hop to
        /// another origin goes without the `Authorization`, `Proxy-Authorization`, `Cookie` and
        /// `X-Amz-Security-Token` fields and the fields credential processors set, no
        /// authentication answers for it, and no signer signs it
        /// (``HTTPNext/mayCarryCredentials(to:)``). Set it only for a server whose redirects
        /// you trust as much as the server itself.
        public var sendsCredentialsAcrossRedirects = false
        /// Whether every POST and PATCH that has no `Idempotency-Key` is given a fresh one (a
        /// UUID) when its call starts, the same across the call's retries and redirects, so
        /// that it is retried and resent as an idempotent request (``RetryPolicy``) and a server
        /// that reads the key acts on it once. For APIs that take the IETF httpapi draft's field
        /// (payments, orders); `false` by default, as a server that does not read it gains nothing.
        public var addsIdempotencyKeys = false
        /// Credentials for calls that have none of their own, asked in order before each
        /// send and on a 401/407 challenge. With a ``baseURL`` they go only to its origin
        /// (see ``sendsCredentialsToAnyOrigin``).
        public var authentications: [any HTTPAuthentication] = []
        /// Whether the session's own credentials — its ``authentications`` and its request
        /// processors that add credentials (``HTTPCredentialProcessor``) — go to any origin a
        /// request names. `false` (the default): with a ``baseURL`` they go only to the base URL's
        /// origin (scheme, host and port), so that a request for another host gets none; without
        /// one, to any origin. A call's own credentials (its options') go wherever it is sent.
        public var sendsCredentialsToAnyOrigin = false
        /// The session's HTTP cache: `nil` (the default) asks none. JewzCache's `HTTPCache`
        /// keeps responses in memory or on disk by RFC 9111's rules (``HTTPResponseCache``).
        public var cache: (any HTTPResponseCache)?
        /// The session's cookies: `nil` (the default) sends and keeps none; a jar (JewzCookies'
        /// `HTTPCookieJar`, RFC 6265) stores every response's `Set-Cookie`, redirects included,
        /// and sends what matches, on any transport.
        public var cookieJar: (any HTTPCookieStorage)?
        /// Whether identical GETs in flight (same URL and headers) share one exchange; off by
        /// default. Each waiter gets the response; one waiter cancelling does not cancel the others.
        public var coalescesIdenticalGETs = false
        /// How many requests may be on the wire at once; `nil` (the default) for no limit. A
        /// request waits for a place by its call's ``HTTPCall/priority``.
        public var maximumActiveRequests: Int?

        // MARK: Processing

        /// Processors for calls that have none of their own.
        public var requestProcessors: [any HTTPRequestProcessor] = []
        /// Processors for calls that have none of their own; when empty, the registry decides.
        public var responseProcessors: [any HTTPResponseProcessor] = []
        /// Picks a response's processor by its Content-Type, and a request object's. In a program
        /// that links the umbrella module Jewzruxin it starts with the standard processors; in
        /// one built from single modules, empty.
        public var processorRegistry = LinkedRegistries.standard.processors
        /// The decoders for `Content-Encoding`; their tokens are advertised in `Accept-Encoding`.
        /// In a program that links the umbrella it starts with gzip, deflate, br and zstd; in one
        /// built from single modules, empty.
        public var contentCodings = LinkedRegistries.standard.codings
        /// Decides whether a status code fails the call with ``HTTPError/Code/statusCode``
        /// Default: `>= 400`.
        public var shouldTreatStatusCodeAsFailure: @Sendable (Int) -> Bool = { $0 >= 400 }

        // MARK: Limits and defaults

        /// The longest a whole request may take, retries and their waits included; `nil` for
        /// no limit. A request's own `timeout` overrides it.
        public var timeoutForResource: Duration? = nil
        /// The largest body kept in memory, after content decoding; a larger one fails with
        /// ``HTTPError/Code/responseTooLarge`` (before a byte is read when `Content-Length`
        /// says so). 100 MiB: more than an API document needs (the benchmarks' largest JSON
        /// body is 50 MB), little enough that a server sending without end cannot take the
        /// process's memory. Downloads and streamed bodies have no limit. The body of a
        /// failing status, always kept in memory, keeps at most its first MiB (or this limit,
        /// if lower): the status error stands, with the body cut there. A middleware reading a
        /// request body (``HTTPRequest/collectBody(upTo:)``) is held to it as well.
        public var maximumResponseBodySize: Int = 100 << 20
        /// Where the string forms of ``HTTPCycle`` resolve a URL without a scheme: the session
        /// as an API client (`HTTPCycle.get("/users/42", session: api)`).
        public var baseURL: URL?
        /// Headers added to every request that does not set them itself: by default a
        /// `User-Agent` naming the toolkit's release.
        public var additionalHeaders: HTTPHeaderFields = ["User-Agent": "Jewzruxin/0.9.0"]

        // MARK: Observing

        /// Where the session logs: each exchange at `debug` (redirects and retries too), failed
        /// calls at `error`, a response no processor could read at `warning`.
        public var logger = Logger(label: "jewzruxin")
        /// The queue completion handlers run on; `nil` (the default) gives each session a serial
        /// queue of its own.
        public var completionQueue: DispatchQueue?

        /// Monitors told of every event of every call of the session.
        public var eventMonitors: [any HTTPEventMonitor] = []
        /// Called with the number of calls in progress whenever it changes, in order, on a serial
        /// queue of its own (for an activity indicator). `nil` reports nothing.
        public var activityHandler: (@Sendable (Int) -> Void)?
        /// Traces each call with a span, and each exchange on the wire with a child
        /// span whose context goes out in the request's headers (W3C `traceparent` with an
        /// OpenTelemetry tracer), with OpenTelemetry's HTTP client names (`http.request.method`,
        /// `http.response.status_code`, `url.full`…, events `http.retry` and `http.redirect`). By default the tracer the
        /// program bootstrapped with `InstrumentationSystem`, if any; `nil` traces nothing.
        public var tracer: (any Tracer)? = HTTPTelemetry.bootstrappedTracer
        /// Records each exchange's duration and the exchanges in flight
        /// (`http.client.request.duration`, `http.client.active_requests`). By default the
        /// factory the program bootstrapped with `MetricsSystem`, if any; `nil` records nothing.
        public var metricsFactory: (any MetricsFactory)? = HTTPTelemetry.bootstrappedMetricsFactory

        /// The defaults of every setting, with the processors and content codings the program
        /// links registered (all of them, for a program that imports `Jewzruxin`).
        public init() {}

        /// The default configuration as `change` leaves it, for a session made in one expression.
        ///
        /// ```swift
        /// let basic = BasicAuthentication(username: "ada", password: ProcessInfo.processInfo.environment["PASSWORD"] ?? "")
        /// let session = HTTPSession(configuration: .init { $0.authentications = [basic] })
        /// ```
        public init(_ change: (inout Configuration) throws -> Void) rethrows {
            try change(&self)
        }
    }
}

extension HTTPSession.Configuration {
    /// Whether the session's own credentials may go with a request for `url` (see
    /// ``sendsCredentialsToAnyOrigin``).
    func sendsSessionCredentials(to url: URL) -> Bool {
        guard let baseURL, !sendsCredentialsToAnyOrigin else { return true }
        return url.origin == baseURL.origin
    }
}
