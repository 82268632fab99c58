/// Values by key in order of use, each with a cost: O(1) lookup, use, insert and eviction of
/// the least recently used. Nodes live in an array linked by index, so the list is a value
/// a lock can hold, with no object per entry. The stores' order of use, and JewzImageCache's
/// memory cache: the project's one LRU.
///
/// ```swift
/// let data = Data("hello".utf8)
/// var list = LRUList<Data>()
/// list.insert(data, forKey: "a", cost: data.count)
/// let evicted = list.evict(toCost: 1 << 20, count: 100)
/// ```
public struct LRUList<Value> {
    fileprivate struct Node {
        var key: String
        var value: Value?
        var cost: Int
        var previous: Int
        var next: Int
    }

    private var nodes: [Node] = []
    private var indexByKey: [String: Int] = [:]
    private var freeSlots: [Int] = []
    /// Most recently used, and least recently used; -1 when empty.
    private var head = -1
    private var tail = -1
    /// The costs of the values held, added up.
    public private(set) var totalCost = 0

    /// An empty list.
    public init() {}

    /// How many values it holds.
    public var count: Int { indexByKey.count }

    /// The keys it holds, in no order.
    public var keys: Dictionary<String, Int>.Keys { indexByKey.keys }

    /// The value for `key`, which becomes the most recently used.
    public mutating func use(_ key: String) -> Value? {
        guard let index = indexByKey[key] else { return nil }
        moveToFront(index)
        return nodes[index].value
    }

    /// Whether `key` is the most recently used.
    public func isMostRecent(_ key: String) -> Bool {
        head >= 0 && nodes[head].key == key
    }

    /// The value for `key`, leaving the order as it is.
    public func peek(_ key: String) -> Value? {
        indexByKey[key].flatMap { nodes[$0].value }
    }

    /// Keeps `value` under `key` as the most recently used, replacing what was there.
    public mutating func insert(_ value: Value, forKey key: String, cost: Int) {
        if let index = indexByKey[key] {
            totalCost += cost - nodes[index].cost
            nodes[index].value = value
            nodes[index].cost = cost
            moveToFront(index)
            return
        }
        let node = Node(key: key, value: value, cost: cost, previous: -1, next: head)
        let index: Int
        if let free = freeSlots.popLast() {
            nodes[free] = node
            index = free
        } else {
            nodes.append(node)
            index = nodes.count - 1
        }
        if head >= 0 { nodes[head].previous = index }
        head = index
        if tail < 0 { tail = index }
        indexByKey[key] = index
        totalCost += cost
    }

    /// Removes `key`'s value and returns its cost.
    @discardableResult
    public mutating func remove(_ key: String) -> Int? {
        guard let index = indexByKey.removeValue(forKey: key) else { return nil }
        unlink(index)
        let cost = nodes[index].cost
        totalCost -= cost
        nodes[index].value = nil
        freeSlots.append(index)
        return cost
    }

    /// Removes least recently used values until both limits hold; returns their keys.
    @discardableResult
    public mutating func evict(toCost costLimit: Int, count countLimit: Int) -> [String] {
        var evicted: [String] = []
        while tail >= 0, totalCost > costLimit || count > countLimit {
            let key = nodes[tail].key
            remove(key)
            evicted.append(key)
        }
        return evicted
    }

    /// Keys from least to most recently used.
    public var keysByAge: [String] {
        var keys: [String] = []
        var index = tail
        while index >= 0 {
            keys.append(nodes[index].key)
            index = nodes[index].previous
        }
        return keys
    }

    private mutating func moveToFront(_ index: Int) {
        guard index != head else { return }
        unlink(index)
        nodes[index].previous = -1
        nodes[index].next = head
        if head >= 0 { nodes[head].previous = index }
        head = index
        if tail < 0 { tail = index }
    }

    private mutating func unlink(_ index: Int) {
        let previous = nodes[index].previous
        let next = nodes[index].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
    }
}

extension LRUList: Sendable where Value: Sendable {}
extension LRUList.Node: Sendable where Value: Sendable {}
