import Foundation

extension HTTPArchive {
    /// One exchange: its request, its response, and how long it took.
    public struct Entry: Codable, Sendable, Equatable {
        /// When the request started, ISO 8601 with milliseconds and a zone.
        public var startedDateTime: String
        /// The whole exchange in milliseconds: the sum of the timings that are known.
        public var time: Double
        /// The request as it was sent.
        public var request: Request
        /// The response as it was received.
        public var response: Response
        /// What a cache did; this recorder leaves it empty, as the format allows.
        public var cache: Cache
        /// Where the exchange's time went.
        public var timings: Timings
        /// The server's IP address, when known.
        public var serverIPAddress: String?
        /// The connection's identifier (a port, say), when known.
        public var connection: String?
        /// A comment for people reading the archive.
        public var comment: String?

        /// An entry with each of the format's fields.
        public init(
            startedDateTime: String, time: Double, request: Request, response: Response, cache: Cache = Cache(), timings: Timings,
            serverIPAddress: String? = nil, connection: String? = nil, comment: String? = nil
        ) {
            self.startedDateTime = startedDateTime
            self.time = time
            self.request = request
            self.response = response
            self.cache = cache
            self.timings = timings
            self.serverIPAddress = serverIPAddress
            self.connection = connection
            self.comment = comment
        }
    }

    /// The `cache` object: empty here.
    public struct Cache: Codable, Sendable, Equatable {
        /// A comment for people reading the archive.
        public var comment: String?

        /// An empty cache object.
        public init(comment: String? = nil) {
            self.comment = comment
        }
    }

    /// Where an exchange's time went, in milliseconds; -1 for a phase that was not measured.
    public struct Timings: Codable, Sendable, Equatable {
        /// Waiting for a connection.
        public var blocked: Double?
        /// Resolving the host name.
        public var dns: Double?
        /// Making the connection, TLS included.
        public var connect: Double?
        /// Sending the request.
        public var send: Double
        /// From the request sent to the first byte of the response.
        public var wait: Double
        /// Reading the response.
        public var receive: Double
        /// The TLS handshake, part of ``connect``.
        public var ssl: Double?

        /// Timings in milliseconds; -1 leaves a phase unmeasured.
        public init(blocked: Double? = -1, dns: Double? = -1, connect: Double? = -1, send: Double, wait: Double, receive: Double, ssl: Double? = -1) {
            self.blocked = blocked
            self.dns = dns
            self.connect = connect
            self.send = send
            self.wait = wait
            self.receive = receive
            self.ssl = ssl
        }
    }
}
