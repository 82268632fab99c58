import AsyncHTTPClient
import NIOCore
import Synchronization

/// One event loop's share of a transport: a client whose connections all live on that loop,
/// the watchdog that keeps its idle timeout, the batch that wakes its awaiting tasks, and how
/// many exchanges it carries now.
///
/// Why a client per event loop rather than one over the whole group: AsyncHTTPClient's
/// delegate API calls a delegate on the event loop it chose for the task before it knew the
/// connection, and hops every event there when the pool hands it a connection on another
/// loop: half the requests on two loops, a measured cost at high concurrency. A client over one loop only ever picks that loop. Pinning requests to a
/// loop inside one pool instead (`.delegateAndChannel`) makes the pool open overflow
/// connections and close them after each request.
final class ClientLane: Sendable {
    let client: HTTPClient
    /// `nil` for a client the caller configured: its own read timeout applies.
    let watchdog: IdleWatchdog?
    /// `nil` for a client over several event loops, whose events come on any of them.
    let wakes: WakeBatch?
    /// Exchanges in flight, read to send the next request down the least busy lane.
    let load = Atomic(0)
    /// The request this lane made last, made again for the same URL and method.
    let requestMemo = ClientRequestMemo()

    init(client: HTTPClient, watchdog: IdleWatchdog?, wakes: WakeBatch?) {
        self.client = client
        self.watchdog = watchdog
        self.wakes = wakes
    }
}
