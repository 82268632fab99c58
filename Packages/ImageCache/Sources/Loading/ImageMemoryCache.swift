import JewzCache
import JewzLocking

/// Values in memory — images, or what decoders made of them — least recently used evicted
/// first once they pass a cost (bytes) or a count limit; safe to use from any thread.
final class ImageMemoryCache<Value: Sendable>: Sendable {
    let costLimit: Int
    let countLimit: Int
    private let list = Mutex(LRUList<Value>())

    init(costLimit: Int, countLimit: Int) {
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    func value(forKey key: String) -> Value? {
        list.withLock { $0.use(key) }
    }

    /// Keeps `value`, unless it alone passes the cost limit.
    func insert(_ value: Value, forKey key: String, cost: Int) {
        list.withLock { list in
            guard cost <= costLimit else {
                _ = list.remove(key)
                return
            }
            list.insert(value, forKey: key, cost: cost)
            _ = list.evict(toCost: costLimit, count: countLimit)
        }
    }

    func remove(forKey key: String) {
        _ = list.withLock { $0.remove(key) }
    }

    /// Forgets the values whose keys `matching` accepts.
    func remove(where matching: (String) -> Bool) {
        list.withLock { list in
            for key in list.keys where matching(key) { _ = list.remove(key) }
        }
    }

    func removeAll() {
        list.withLock { $0 = LRUList() }
    }

    var usage: (cost: Int, count: Int) {
        list.withLock { ($0.totalCost, $0.count) }
    }
}

extension ImageMemoryCache<Image> {
    func image(forKey key: String) -> Image? { value(forKey: key) }

    func insert(_ image: Image, forKey key: String) { insert(image, forKey: key, cost: image.data.count) }
}
