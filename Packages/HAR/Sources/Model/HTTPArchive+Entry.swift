import Foundation

extension HTTPArchive {
    /// One exchange: its request, its response, and how long it took.
    public struct Entry: Codable, Sendable, Equatable {
        /// When the request started, ISO 8601 with milliseconds and a zone.
        public var startedDateTime: String
        /// The whole exchange in milliseconds: the sum of the timings that are known.
        public var time: Double
        public var request: Request
        public var response: Response
        /// What a cache did; this recorder leaves it empty, as the format allows.
        public var cache: Cache
        public var timings: Timings
        public var serverIPAddress: String?
        public var connection: String?
        public var comment: String?

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
        public var comment: String?

        public init(comment: String? = nil) {
            self.comment = comment
        }
    }

    /// Where an exchange's time went, in milliseconds; -1 for a phase that was not measured.
    public struct Timings: Codable, Sendable, Equatable {
        public var blocked: Double?
        public var dns: Double?
        public var connect: Double?
        public var send: Double
        /// From the request sent to the first byte of the response.
        public var wait: Double
        /// Reading the response.
        public var receive: Double
        public var ssl: Double?

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
