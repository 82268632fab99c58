extension AsyncHTTPClientTransport {
    /// What the default transport needs to reach servers: timeouts, the connection pool, TLS,
    /// the HTTP version and proxies. Policies over whole cycles (redirects, body limits,
    /// cookies) are the session's, in ``HTTPSession/Configuration``.
    ///
    /// ```swift
    /// var configuration = HTTPSession.Configuration()
    /// configuration.transport.tls.additionalTrustRoots = [try .init(contentsOfFile: "ca.pem")]
    /// configuration.transport.httpVersion = .http1Only
    /// configuration.transport.proxies = try .environment()
    /// let session = HTTPSession(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// How long the transport waits to connect, and for a silent connection.
        public var timeouts = Timeouts()
        /// How many connections the transport keeps, and for how long.
        public var connectionPool = ConnectionPool()
        /// What the transport trusts and presents over TLS.
        public var tls = TLS()
        /// Which HTTP versions may be negotiated; HTTP/2 by ALPN when the server offers it.
        public var httpVersion = HTTPVersion.automatic
        /// Where requests go through a proxy; `nil` (the default) for none. Environment
        /// variables are read only when asked: ``Proxies/environment(_:)``.
        public var proxies: Proxies?
        /// Sends every request to the server on this Unix domain socket, as curl's
        /// `--unix-socket` does (a container engine's, a local daemon's): the URL's host and
        /// port go only in `Host`. A single request can name a socket instead with
        /// AsyncHTTPClient's URL form, `http+unix://%2Fvar%2Frun%2Fapp.sock/path`.
        public var unixSocketPath: String?

        /// The defaults of every setting: what a session without a transport configuration uses.
        public init() {}

        /// How long the transport waits.
        public struct Timeouts: Sendable {
            /// The longest establishing a connection (TCP, and TLS or a proxy's handshake) may take.
            public var connect: Duration = .seconds(10)
            /// The longest an exchange may go without sending or receiving a byte before it
            /// fails with ``HTTPError/timedOut``; a call's ``HTTPRequestOptions/idleTimeout``
            /// overrides it. Time spent waiting for the reader of a streamed body does not count.
            public var idle: Duration = .seconds(60)

            init() {}
        }

        /// How connections are kept.
        public struct ConnectionPool: Sendable {
            /// How many HTTP/1.1 connections to one host may be open at once, over all the
            /// transport's event loops. AsyncHTTPClient's default of 8 halves throughput at high
            /// concurrency, so the default is higher. HTTP/2 multiplexes over one connection per
            /// event loop in use.
            public var maximumConnectionsPerHost: Int = 256

            init() {}
        }

        /// The HTTP versions the transport may speak.
        public struct HTTPVersion: Sendable, Hashable {
            private enum Value: Sendable, Hashable { case automatic, http1Only }
            private let value: Value
            /// HTTP/2 when the server offers it in the TLS handshake (ALPN), else HTTP/1.1.
            public static let automatic = HTTPVersion(value: .automatic)
            /// HTTP/1.1 only, even when the server offers HTTP/2.
            public static let http1Only = HTTPVersion(value: .http1Only)

            var allowsHTTP2: Bool { value == .automatic }
        }
    }
}
