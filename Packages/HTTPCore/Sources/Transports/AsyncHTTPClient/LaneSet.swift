import Foundation
import JewzLocking

/// A transport's lanes to one kind of destination (direct, or through one proxy), and which of
/// them a request goes down.
///
/// An origin that speaks HTTP/1.1 gets the least busy lane: each lane holds its share of the
/// pool's connections, and together they hold all of it. One that speaks HTTP/2, or may (any
/// `https` origin until one of its responses says otherwise), gets one lane of its own, so that
/// its requests share one connection, as a browser's and OkHttp's do: a lane per event loop
/// would otherwise open a connection per lane.
final class LaneSet: Sendable {
    /// Never empty.
    let lanes: [ClientLane]
    /// The `https` origins whose responses came over HTTP/1.
    private let http1Origins = Mutex<Set<String>>([])

    init(_ lanes: [ClientLane]) {
        self.lanes = lanes
    }

    /// The lane for a request to `url`, and its origin when a response has yet to say whether
    /// it speaks HTTP/2: what ``note(_:from:)`` learns about.
    func lane(for url: URL) -> (lane: ClientLane, unsettledOrigin: String?) {
        guard lanes.count > 1, url.scheme == "https" else { return (leastBusy(), nil) }
        let origin = url.origin
        if http1Origins.withLock({ $0.contains(origin) }) { return (leastBusy(), nil) }
        var hasher = Hasher()
        hasher.combine(origin)
        return (lanes[Int(UInt(bitPattern: hasher.finalize()) % UInt(lanes.count))], origin)
    }

    /// Learns from a response whether `origin`, unsettled when its lane was chosen, speaks HTTP/2.
    func note(_ version: HTTPVersion, from origin: String) {
        guard version.major < 2 else { return }
        http1Origins.withLock { _ = $0.insert(origin) }
    }

    /// The lane with the fewest exchanges in flight, the first of equals: a caller who sends
    /// one request at a time keeps to one lane and so to one kept-alive connection.
    private func leastBusy() -> ClientLane {
        var best = lanes[0]
        var bestLoad = best.load.load(ordering: .relaxed)
        for lane in lanes.dropFirst() where bestLoad > 0 {
            let load = lane.load.load(ordering: .relaxed)
            if load < bestLoad {
                best = lane
                bestLoad = load
            }
        }
        return best
    }
}
