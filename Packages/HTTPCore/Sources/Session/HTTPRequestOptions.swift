/// What one call uses instead of its session's settings: the per-call level between the
/// session's ``HTTPSession/Configuration-swift.struct`` and the ``HTTPRequest`` itself. Each
/// `nil` (and `solicited` false, `priority` normal) leaves the session's in charge. What the call
/// returns is not an option: it is the call you make (``HTTPSession/send(_:options:)``,
/// ``HTTPSession/stream(_:options:)``, ``HTTPSession/download(_:to:resumingFrom:options:didWriteData:)``).
///
/// ```swift
/// let request = HTTPRequest(url: url)
/// let file = URL(filePath: "big.iso")
/// let response = try await session.send(
///     request, options: .init(requestProcessors: [HTTPJSONProcessor()], retryPolicy: .never))
/// let saved = try await session.download(request, to: file, options: .init(priority: .high))
/// ```
public struct HTTPRequestOptions: Sendable {
    /// Turn the request's object into its body, in order; `nil` uses the session's.
    public var requestProcessors: [any HTTPRequestProcessor]?
    /// Read the response, in order; `nil` uses the session's, and when those are empty the
    /// session's registry picks one by Content-Type. An empty list turns processing off: the
    /// response comes back as bytes.
    public var responseProcessors: [any HTTPResponseProcessor]?
    /// Answer the server's challenges; `nil` uses the session's. These go to any host the
    /// request reaches, where the session's go only where its configuration lets them.
    public var authentications: [any HTTPAuthentication]?
    /// The longest the whole call may take, from its start to its response — every attempt,
    /// backoff and `Retry-After` wait included (a retry that would end past it is not made);
    /// `nil` uses the session's ``HTTPSession/Configuration-swift.struct/timeoutForResource``.
    public var timeoutForResource: Duration? {
        get { tuning.wrappedValue?.timeoutForResource }
        set { tune { $0.timeoutForResource = newValue } }
    }
    /// The longest the call's exchanges may go without sending or receiving a byte; `nil` uses
    /// the transport's (``AsyncHTTPClientTransport/Configuration/Timeouts/idle``). A slow
    /// endpoint gets a longer one, a health check a shorter one.
    public var idleTimeout: Duration? {
        get { tuning.wrappedValue?.idleTimeout }
        set { tune { $0.idleTimeout = newValue } }
    }
    /// What the session's cache may do for this call; the default follows RFC 9111.
    public var caching: Caching {
        get { tuning.wrappedValue?.caching ?? Caching() }
        set { tune { $0.caching = newValue } }
    }
    /// A media type to use instead of the response's Content-Type when the session's registry
    /// chooses the processor, for servers that label their bodies wrongly.
    public var responseContentTypeOverride: String? {
        get { tuning.wrappedValue?.responseContentTypeOverride }
        set { tune { $0.responseContentTypeOverride = newValue } }
    }
    /// The settings above, which most calls leave alone: out of line, so that a call's options
    /// stay small to copy and destroy.
    private(set) var tuning: OutOfLine<Tuning>
    /// When to send the request again after a failure; `nil` uses the session's.
    public var retryPolicy: RetryPolicy? {
        get { retryPolicyStorage.wrappedValue }
        set { retryPolicyStorage.wrappedValue = newValue }
    }
    // Out of line: a request holds its options across the whole exchange, and an inline policy
    // (a set, durations, a closure) was copied and destroyed field by field.
    private(set) var retryPolicyStorage: OutOfLine<RetryPolicy>
    /// Whether a person asked for this request (a tap on "reload"), so that it is retried
    /// until data arrives.
    public var solicited: Bool
    /// Where the request stands in its session's queue while it waits for a place; change it
    /// later through the call (``HTTPCall/priority``).
    public var priority: RequestPriority
    /// Called as the request body goes out, with what reached the socket.
    public var didSendBodyData: HTTPProgressHandler?
    /// Which redirects the call follows: as the session says (the default), none, or those
    /// that stay on the origin it started at. A redirect not followed is the call's response.
    public var redirects: Redirects = .asSessionFollows

    /// Options for one call; each left `nil` is the session's setting.
    public init(
        requestProcessors: [any HTTPRequestProcessor]? = nil, responseProcessors: [any HTTPResponseProcessor]? = nil,
        authentications: [any HTTPAuthentication]? = nil, timeoutForResource: Duration? = nil, idleTimeout: Duration? = nil,
        caching: Caching = Caching(), retryPolicy: RetryPolicy? = nil, solicited: Bool = false, priority: RequestPriority = .normal,
        didSendBodyData: HTTPProgressHandler? = nil
    ) {
        self.requestProcessors = requestProcessors
        self.responseProcessors = responseProcessors
        self.authentications = authentications
        let tuned = timeoutForResource != nil || idleTimeout != nil || caching != Caching()
        tuning = OutOfLine(wrappedValue: tuned ? Tuning(timeoutForResource: timeoutForResource, idleTimeout: idleTimeout, caching: caching) : nil)
        retryPolicyStorage = OutOfLine(wrappedValue: retryPolicy)
        self.solicited = solicited
        self.priority = priority
        self.didSendBodyData = didSendBodyData
    }
}

extension HTTPRequestOptions {
    /// The settings few calls change (``HTTPRequestOptions/timeoutForResource`` and its
    /// neighbours), kept together out of line.
    struct Tuning: Sendable {
        var timeoutForResource: Duration?
        var idleTimeout: Duration?
        var caching = Caching()
        var responseContentTypeOverride: String?
        /// The settings other modules declare (``HTTPRequestOptionKey``), by key.
        var settings: [ObjectIdentifier: any Sendable] = [:]
    }

    mutating func tune(_ change: (inout Tuning) -> Void) {
        var tuned = tuning.wrappedValue ?? Tuning()
        change(&tuned)
        tuning.wrappedValue = tuned
    }
}

extension HTTPRequestOptions {
    /// Which redirects a call follows (``HTTPRequestOptions/redirects``): a call can follow
    /// fewer than its session, never more.
    public enum Redirects: Sendable, Hashable {
        /// Those the session follows (``HTTPSession/Configuration-swift.struct/followsRedirects``).
        case asSessionFollows
        /// None: a redirect is the response. For requests whose body is a secret meant for
        /// one server alone (an OAuth token request).
        case never
        /// Those whose `Location` is on the origin (scheme, host and port) the call started at;
        /// a redirect to another origin is the response.
        case withinOrigin
    }
}
