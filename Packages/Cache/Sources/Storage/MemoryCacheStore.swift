import JewzLocking

/// Responses in memory, least recently used evicted first once they pass a cost (bytes) or a
/// count limit.
///
/// ```swift
/// let cache = HTTPCache(store: MemoryCacheStore(costLimit: 20 << 20, countLimit: 500))
/// ```
public final class MemoryCacheStore: CacheStore {
    /// The most bytes kept (bodies, headers and keys).
    public let costLimit: Int
    /// The most responses kept.
    public let countLimit: Int
    private let state: Mutex<LRUList<CachedResponse>>

    /// A store of at most `costLimit` bytes and `countLimit` responses.
    ///
    /// - Parameters:
    ///   - costLimit: the most bytes (bodies, headers and keys) kept; 32 MiB by default.
    ///   - countLimit: the most responses kept.
    public init(costLimit: Int = 32 << 20, countLimit: Int = 1_000) {
        self.costLimit = costLimit
        self.countLimit = countLimit
        state = Mutex(LRUList())
    }

    public func response(forKey key: String) -> CachedResponse? {
        state.withLock { $0.use(key) }
    }

    public func store(_ response: CachedResponse) throws {
        let cost = response.cost
        state.withLock { list in
            guard cost <= costLimit else {
                _ = list.remove(response.key)
                return
            }
            list.insert(response, forKey: response.key, cost: cost)
            list.evict(toCost: costLimit, count: countLimit)
        }
    }

    public func removeResponse(forKey key: String) {
        _ = state.withLock { $0.remove(key) }
    }

    public func removeAll() {
        state.withLock { $0 = LRUList() }
    }

    /// The bytes and the number of responses held now.
    public var usage: (cost: Int, count: Int) {
        state.withLock { ($0.totalCost, $0.count) }
    }
}
