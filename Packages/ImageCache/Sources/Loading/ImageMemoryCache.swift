import JewzCache
import JewzLocking

/// Images in memory, least recently used evicted first once they pass a cost (bytes) or a
/// count limit; safe to use from any thread.
final class ImageMemoryCache: Sendable {
    let costLimit: Int
    let countLimit: Int
    private let list = Mutex(LRUList<Image>())

    init(costLimit: Int, countLimit: Int) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    func image(forKey key: String) -> Image? {
        list.withLock { $0.use(key) }
    }

    /// Keeps `image`, unless it alone passes the cost limit.
    func insert(_ image: Image, forKey key: String) {
        let cost = image.data.count
        list.withLock { list in
            guard cost <= costLimit else {
                _ = list.remove(key)
                return
            }
            list.insert(image, forKey: key, cost: cost)
            _ = list.evict(toCost: costLimit, count: countLimit)
        }
    }

    func remove(forKey key: String) {
        _ = list.withLock { $0.remove(key) }
    }

    func removeAll() {
        list.withLock { $0 = LRUList() }
    }

    var usage: (cost: Int, count: Int) {
        list.withLock { ($0.totalCost, $0.count) }
    }
}
