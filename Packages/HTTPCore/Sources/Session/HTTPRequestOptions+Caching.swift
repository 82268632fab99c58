extension HTTPRequestOptions {
    /// What a call allows the session's cache (``HTTPSession/Configuration-swift.struct/cache``)
    /// to do (``HTTPRequestOptions/caching``). Without a cache it changes nothing.
    public struct Caching: Sendable, Hashable {
        /// Where a response may come from.
        public enum Policy: Sendable, Hashable {
            /// As RFC 9111 says: a fresh stored response, else the network (conditionally,
            /// when a stored response has validators).
            case standard
            /// The network, whatever is stored; the response is stored as usual (a forced
            /// reload).
            case reloadIgnoringCache
            /// The network, conditionally when a stored response has validators (`ETag`,
            /// `Last-Modified`): a `304` gives the stored body, anything else replaces it.
            case revalidate
            /// A stored response even when stale, else the network (an offline-first read).
            case returnCacheElseLoad
            /// Only a stored response, even when stale; a `504` when there is none (RFC 9111
            /// §5.2.1.7's `only-if-cached`). The network is never used.
            case onlyIfCached
        }

        /// Where the response may come from: the store, the network, or both.
        public var policy: Policy
        /// How long to keep this response whatever its headers say; `.zero` never stores it;
        /// `nil` lets the headers decide.
        public var lifetime: Duration?
        /// The key the response is stored and found under instead of method and URL, for URLs that differ in parts that do not matter.
        public var key: String?

        /// What the cache may do: the default follows RFC 9111.
        public init(policy: Policy = .standard, lifetime: Duration? = nil, key: String? = nil) {
            self.policy = policy
            self.lifetime = lifetime
            self.key = key
        }
    }
}
