import Foundation
import JewzJSON
import Synchronization

/// The exchanges the traffic view shows: the last ``capacity`` of them, and the pages watching,
/// each told which exchanges changed since it last looked.
///
/// Bounded twice: the oldest exchange goes when a new one comes past ``capacity``, and each
/// body keeps at most ``bodyLimit`` bytes (the count of the rest is kept). A page is told of
/// changes, not sent each one: however fast the traffic, it reads the rows that changed, each
/// once, in its latest state.
final class TrafficLog: Sendable {
    /// How many exchanges are kept.
    let capacity: Int
    /// How many bytes of each body are kept.
    let bodyLimit: Int

    private struct Watcher {
        /// The exchanges changed since the page last looked.
        var changed: Set<Int>
        /// Woken on a change; holds one wake-up at most, however many changes come first.
        let wake: AsyncStream<Void>.Continuation
    }

    private struct State {
        /// In the order they started: ids only grow, so the first is the oldest. Past
        /// `capacity` the oldest are dropped ``trimBatch`` at a time, so that a new exchange
        /// does not move every kept one; the ones before the last `capacity` are gone already.
        var exchanges: [TrafficExchange] = []
        var nextID = 1
        var watchers: [Int: Watcher] = [:]
        var nextWatcher = 0

        /// Marks `id` changed for every page; the wake-ups to send.
        mutating func changed(_ id: Int) -> [AsyncStream<Void>.Continuation] {
            guard !watchers.isEmpty else { return [] }
            for key in watchers.keys { watchers[key]?.changed.insert(id) }
            return watchers.values.map(\.wake)
        }
    }

    private let state = Mutex(State())
    /// How many exchanges past ``capacity`` wait to be dropped together: memory holds at most
    /// this many more than the page shows.
    private static let trimBatch = 64

    init(capacity: Int, bodyLimit: Int) {
        self.capacity = capacity
        self.bodyLimit = bodyLimit
    }

    /// Adds an exchange that starts now, made by `make` with its id.
    func begin(_ make: (Int) -> TrafficExchange) -> Int {
        let (id, wakes) = state.withLock { state in
            let exchange = make(state.nextID)
            state.nextID += 1
            state.exchanges.append(exchange)
            if state.exchanges.count >= capacity + Self.trimBatch { state.exchanges.removeFirst(state.exchanges.count - capacity) }
            return (exchange.id, state.changed(exchange.id))
        }
        for wake in wakes { wake.yield() }
        return id
    }

    /// Changes exchange `id` (nothing, once it has been dropped); `notifying` tells the pages.
    func update(_ id: Int, notifying: Bool = true, _ change: (inout TrafficExchange) -> Void) {
        let wakes = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            guard let index = index(of: id, in: state.exchanges) else { return [] }
            change(&state.exchanges[index])
            return notifying ? state.changed(id) : []
        }
        for wake in wakes { wake.yield() }
    }

    /// Exchange `id`, while it is kept.
    func exchange(_ id: Int) -> TrafficExchange? {
        state.withLock { state in index(of: id, in: state.exchanges).map { state.exchanges[$0] } }
    }

    /// Every kept exchange, oldest first.
    var exchanges: [TrafficExchange] {
        state.withLock { Array($0.exchanges.suffix(capacity)) }
    }

    /// A page's watch: ``Watch/wakes`` yields when something changed, ``Watch/changes()``
    /// says what. It starts with every kept exchange changed; it ends when the log is closed
    /// or the watch dropped.
    func watch() -> Watch {
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let key = state.withLock { state in
            defer { state.nextWatcher += 1 }
            state.watchers[state.nextWatcher] = Watcher(changed: Set(state.exchanges.suffix(capacity).map(\.id)), wake: wake)
            return state.nextWatcher
        }
        wake.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.watchers.removeValue(forKey: key) }
        }
        wake.yield()
        return Watch(log: self, key: key, wakes: wakes)
    }

    struct Watch: Sendable {
        fileprivate let log: TrafficLog
        fileprivate let key: Int
        let wakes: AsyncStream<Void>

        /// The rows of the exchanges changed since the last call, oldest first; those dropped
        /// meanwhile are left out.
        func changes() -> [JSONValue] {
            let changed = log.state.withLock { state in
                let ids = state.watchers[key]?.changed ?? []
                state.watchers[key]?.changed = []
                return ids.sorted().compactMap { id in log.index(of: id, in: state.exchanges).map { state.exchanges[$0] } }
            }
            return changed.map(\.summary)
        }
    }

    /// Ends every page's watch: the proxy is stopping.
    func close() {
        let wakes = state.withLock { state in
            defer { state.watchers = [:] }
            return state.watchers.values.map(\.wake)
        }
        for wake in wakes { wake.finish() }
    }

    /// Where `id` is among the last `capacity`: ids grow in order, so a binary search finds it.
    private func index(of id: Int, in exchanges: [TrafficExchange]) -> Int? {
        var low = max(0, exchanges.count - capacity)
        var high = exchanges.count
        while low < high {
            let middle = (low + high) / 2
            if exchanges[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < exchanges.count && exchanges[low].id == id ? low : nil
    }
}
