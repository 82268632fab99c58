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
    /// The call's ``HTTPRequestOptions/idleTimeout``, carried to the transport with the request.
    package var idleTimeout: Duration?
    /// The call's ``HTTPRequestOptions/caching``, as a cache carries it along its own steps;
    /// absent when default: a pointer's space in every request.
    private var cachingStorage: Boxed<HTTPRequestOptions.Caching>?
    /// Whether the session's cache lets this request pass: a download's request for the rest
    /// of its file, which the origin answers against the file's validator.
    var goesAroundCache = false
    /// The connection this request must go over, for a handshake that authenticates a
    /// connection; `nil`: any the transport picks.
    package var dedicatedConnection: DedicatedConnection?

    /// A request for `url` with `method`, `headers`, and a body of `data` or of `object` as a
    /// request processor encodes it. How the call runs — its timeouts, cache policy, retries —
    /// is in its ``HTTPRequestOptions``.
    public init(url: URL, method: HTTPMethod = .get, headers: HTTPHeaderFields = [:], data: Data? = nil, object: (any Sendable)? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        body = data.map(HTTPRequestBody.data)
        self.object = object
    }

    /// Whether the body can be sent again (for a retry, a challenge, a redirect or a
    /// restart): the one place that question is answered.
    package var hasReplayableBody: Bool { body?.isReplayable ?? true }

    /// The caching options a cache was handed with this request, kept on it through the
    /// cache's own steps (a validation, the POST stored as a GET).
    package var caching: HTTPRequestOptions.Caching {
        get { cachingStorage?.value ?? HTTPRequestOptions.Caching() }
        set { cachingStorage = newValue == HTTPRequestOptions.Caching() ? nil : Boxed(newValue) }
    }
}
