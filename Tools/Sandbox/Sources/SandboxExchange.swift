import Foundation

/// A request as the Sandbox routes see it: already complete, body included.
public struct SandboxRequest: Sendable {
    public var method: String
    /// The request target as sent (`/echo/?code=404`).
    public var uri: String
    /// The protocol the request came over: `HTTP/1.1`, `HTTP/2.0`.
    public var version: String
    public var headers: [(name: String, value: String)]
    public var body: Data
    /// Which connection (or HTTP/2 stream) the request came over: the same number for the
    /// requests of one kept-alive connection.
    public var connection: Int

    public init(
        method: String, uri: String, version: String = "HTTP/1.1", headers: [(name: String, value: String)], body: Data,
        connection: Int = 0
    ) {
        self.connection = connection
        self.method = method
        self.uri = uri
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The path without the query, with one trailing slash removed (`/hello/` is `/hello`).
    var path: String {
        let path = String(uri.prefix { $0 != "?" })
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The decoded query items in order; `nil` when the URI cannot be parsed.
    var queryItems: [URLQueryItem]? {
        guard let components = URLComponents(string: uri) else { return nil }
        return components.queryItems ?? []
    }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// What a route answers, and how the connection should behave while answering.
public struct SandboxResponse: Sendable {
    public enum Delivery: Sendable {
        /// Send the whole body.
        case complete
        /// Announce the full Content-Length, send this many body bytes, then close the
        /// connection: a transfer dropped mid-body.
        case dropAfter(bytes: Int)
        /// Send these pieces with chunked encoding, the first at once and each next one
        /// `interval` later (the body is ignored), then end as `ending` says: events and lines
        /// as a live server sends them.
        case paced([Data], interval: Duration, ending: Ending)
    }

    /// How a paced body ends.
    public enum Ending: Sendable {
        /// With the last chunk, as a complete response.
        case complete
        /// By closing the connection without ending the body: a dropped stream.
        case drop
        /// Not at all: the connection stays open and nothing more is sent.
        case hold
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data
    public var delay: Duration = .zero
    public var delivery: Delivery = .complete

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    static func text(_ text: String, status: Int = 200) -> SandboxResponse {
        SandboxResponse(
            status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Data(text.utf8))
    }
}
