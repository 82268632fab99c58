import Foundation

/// What a cycle sends: URL, method, headers, and a body given as raw `data` or as an `object`
/// that the request processors turn into data.
public struct HTTPRequest: Sendable {
    /// The absolute URL to send the request to.
    public var url: URL
    /// The request method; `GET` unless set.
    public var method: HTTPMethod
    /// The header fields sent, before the session's own (which never replace these).
    public var headers: HTTPHeaderFields
    /// What the request sends: data, a file, or a one-shot stream.
    public var body: HTTPRequestBody?
    /// The body when it is bytes in memory; setting it makes the body `.data`. Request
    /// processors set it from ``object``.
    public var data: Data? {
        get { if case .data(let data)? = body { data } else { nil } }
        set { body = newValue.map(HTTPRequestBody.data) }
    }
    /// A model for the request processors to turn into ``data`` (a dictionary, an `Encodable`…).
    public var object: (any Sendable)?
    /// The longest the whole request may take, from its start to its response — every
    /// attempt, backoff and `Retry-After` wait included (a retry that would end past it is not
    /// made); `nil` uses the session's `timeoutForResource`.
    public var timeout: Duration?
    /// The longest this request's exchange may go without sending or receiving a byte; `nil`
    /// uses the transport's idle timeout (``AsyncHTTPClientTransport/Configuration/Timeouts/idle``).
    /// A slow endpoint gets a longer one, a health check a shorter one.
    public var idleTimeout: Duration?
    /// Whether a response without explicit processors is digested by the processor registered
    /// for its Content-Type. On by default.
    public var appliesContentTypeProcessing: Bool
    /// Whether the session's cache lets this request pass: a download's request for the rest
    /// of its file, which the origin answers against the file's validator.
    var goesAroundCache = false
    /// A media type to use instead of the response's Content-Type when choosing the processor,
    /// for servers that label their bodies wrongly.
    public var responseContentTypeOverride: String?
    /// ``caching`` when it is not the default: a pointer's space in every request.
    var cachingOptions: Boxed<Caching>?
    /// The connection this request must go over, for a handshake that authenticates a
    /// connection; `nil`: any the transport picks.
    package var dedicatedConnection: DedicatedConnection?

    /// A request for `url` with `method`, `headers`, and a body of `data` or of `object` as a
    /// request processor encodes it; `timeout` bounds the whole call.
    public init(
        url: URL, method: HTTPMethod = .get, headers: HTTPHeaderFields = [:], data: Data? = nil,
        object: (any Sendable)? = nil, timeout: Duration? = nil
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        body = data.map(HTTPRequestBody.data)
        self.object = object
        self.timeout = timeout
        appliesContentTypeProcessing = true
        responseContentTypeOverride = nil
    }

    /// Whether the body can be sent again (for a retry, a challenge, a redirect or a
    /// restart): the one place that question is answered.
    var hasReplayableBody: Bool { body?.isReplayable ?? true }
}
